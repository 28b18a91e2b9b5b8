import Foundation
import MirrorCore
import MirrorRender
import MirrorStore

/// Render mode inside a crawl: the browser, its rules, and what one run keeps of it.
final class Rendering: @unchecked Sendable {
    let settings: RenderSettings
    let rules: RenderRules
    let renderer: Renderer
    let cache = RenderCache()

    /// What one run's pages share while they render.
    struct Run: Sendable {
        let ledger: RenderLedger
        let state: CrawlState
        let staging: StagingSnapshot
        let originals: OriginalsPack
        let previous: PreviousSnapshot?
        let robotsAgent: String?
        let isolation: BrowserIsolation
    }

    private let lock = NSLock()
    private var current: Run?
    /// Refresh: whether each dependency checked so far changed (pages share most of theirs).
    private var checked: [RenderRecord.Dependency: Task<Bool, Never>] = [:]

    /// The answer for `dependency`, checked once per run however many pages share it.
    func check(_ dependency: RenderRecord.Dependency, with work: @escaping @Sendable () async -> Bool) async -> Bool {
        await task(for: dependency, work).value
    }

    private func task(for dependency: RenderRecord.Dependency, _ work: @escaping @Sendable () async -> Bool) -> Task<Bool, Never> {
        lock.lock()
        defer { lock.unlock() }
        if let known = checked[dependency] { return known }
        let task = Task { await work() }
        checked[dependency] = task
        return task
    }

    init(settings: RenderSettings, logger: Logger) throws(ScopeError) {
        self.settings = settings
        rules = try RenderRules(settings)
        renderer = Renderer(configuration: settings.browser, logger: logger)
    }

    var run: Run? {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func begin(_ run: Run) {
        lock.lock()
        current = run
        lock.unlock()
    }

    /// Whether `item` is a page that goes to the browser.
    func renders(_ item: FrontierItem) -> Bool {
        !item.isRequisite && rules.renders(item.url)
    }
}
