import Foundation
import MirrorCore
import MirrorRender
import MirrorStore

/// What render mode did in one run: each rendered page's record, the previous snapshot's
/// records (for the refresh decision), replay entries, and what the report says about it.
actor RenderLedger {
    let scripts: RenderSettings.Scripts
    private(set) var records: [String: RenderRecord] = [:]
    /// The previous snapshot's records, by page URL.
    let previous: [String: RenderRecord]
    private let previousReplay: [ReplayEntry]
    private(set) var replay: [ReplayEntry] = []
    private var replayKeys: Set<String> = []
    private(set) var failures: [CrawlReport.Failure] = []
    private var budgetCuts: [RenderSummary.BudgetCut] = []
    private var refused: [RenderSummary.Refused] = []
    private var refusedCount = 0
    private var failedRequests = 0
    private var rendered = 0
    private var unchanged = 0
    private var seconds = 0.0

    /// - Parameter previous: the previous snapshot's `_mirror/render.json`, if any.
    init(scripts: RenderSettings.Scripts, previous: RenderFile?) {
        self.scripts = scripts
        var byURL: [String: RenderRecord] = [:]
        for record in previous?.pages ?? [] { byURL[record.url] = record }
        self.previous = byURL
        previousReplay = previous?.replay ?? []
    }

    /// Reads `_mirror/render.json` from a snapshot (nil when absent or unreadable).
    static func load(from fileSystem: SecureFileSystem) -> RenderFile? {
        guard let bytes = try? fileSystem.read(RenderFile.path) else { return nil }
        return try? JSONDecoder().decode(RenderFile.self, from: Data(bytes))
    }

    func rendered(_ record: RenderRecord, completion: RenderedPage.Completion) {
        records[record.url] = record
        rendered += 1
        seconds += record.seconds
        if case .budgetCut(let limit) = completion {
            budgetCuts.append(.init(url: record.url, limit: limit.rawValue))
        }
    }

    /// A rendered page of the previous snapshot that is kept as it was.
    func keptUnchanged(_ url: String) -> [ReplayEntry] {
        unchanged += 1
        if let record = previous[url] { records[url] = record }
        let entries = previousReplay.filter { $0.page == url }
        for entry in entries { addReplay(entry) }
        return entries
    }

    func renderFailed(_ url: String, _ failure: PageRenderFailure, referrer: String?) {
        failures.append(.init(url: url, kind: failure.kind, cause: "render mode: \(failure)", referrer: referrer))
    }

    func refused(_ url: String, reason: String, page: String) {
        refusedCount += 1
        if refused.count < 1_000 { refused.append(.init(url: url, reason: reason, page: page)) }
    }

    func requestFailed() { failedRequests += 1 }

    func addReplay(_ entry: ReplayEntry) {
        let key = "\(entry.method) \(entry.url) \(entry.requestSHA256 ?? "-")"
        if replayKeys.insert(key).inserted { replay.append(entry) }
    }

    /// Writes `_mirror/render.json` into the snapshot being built.
    func save(to fileSystem: SecureFileSystem) throws {
        let file = RenderFile(scripts: scripts, pages: records.values.sorted { $0.url < $1.url }, replay: replay)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try fileSystem.write(Array(try encoder.encode(file)), to: RenderFile.path)
    }

    func summary(isolation: BrowserIsolation, cacheHits: Int, browserStarts: Int) -> RenderSummary {
        RenderSummary(
            isolation: isolation == .privateNetworkWithoutSandbox ? "private network, no sandbox" : "private network, sandboxed",
            scripts: scripts.rawValue, rendered: rendered, unchanged: unchanged, failed: failures.count,
            budgetCut: budgetCuts.sorted { $0.url < $1.url }, refusedCount: refusedCount, refused: refused,
            failedRequests: failedRequests, cacheHits: cacheHits, seconds: seconds, browserStarts: browserStarts)
    }
}
