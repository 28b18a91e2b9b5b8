import Foundation
import MirrorCore
import MirrorHTTP
import MirrorStore

/// The mutable state of one crawl, behind an actor: the frontier, what was recorded of each
/// URL, failures and counters. Fetch tasks report into it; the driver asks it what to fetch
/// next.
///
/// Memory stays flat as the site grows (issue #27): every URL has a number in the frontier's
/// ``URLRegistry``, and the state keeps a few bytes a URL by that number (``Marks``, where its
/// local path is, a fingerprint of that path). Everything else goes to ``CrawlSpills``: the
/// manifest's entries (SQLite), the local paths, and the documents with their prepared
/// rewrites, read back by the rewrite phase.
actor CrawlState {
    enum DocumentKind: Sendable { case html, css }

    struct Document: Sendable {
        let url: WebURL
        let localPath: String
        let kind: DocumentKind
        let contentType: String?
        /// SHA-256 of the original body; the original is kept in the snapshot's
        /// ``MirrorStore/OriginalsPack`` (or, for a body that streamed to a file, as
        /// `_mirror/raw/<sha256>`).
        let sha256: String
        /// Unchanged since the previous snapshot (revalidated with 304, or carried over): the
        /// previous snapshot's rewritten copy can be kept when none of the URLs it links moved
        /// (``Crawler/reuseRewritten(_:previous:paths:nothingMoved:fileSystem:directories:)``).
        var isUnchanged = false
        /// For a document parsed during this crawl: its references, ready to be rewritten
        /// without a second parse.
        var deferred: DeferredRewrite? = nil
        /// Only the original (in the pack, or under ``MirrorStore/SecureFileSystem/rawPath(sha256:)``) is on disk so
        /// far, not the file under ``localPath``: a body received in memory, or a 304.
        var originalOnly = false
        /// The previous snapshot's rewritten copy is linked under ``localPath`` already (a 304,
        /// linked while the crawl waited on the network): the rewrite phase keeps it, or
        /// removes it before writing the document again.
        var previousCopyLinked = false
    }

    /// What the crawl recorded of one URL (by its id), in one byte.
    struct Marks: OptionSet, Sendable {
        let rawValue: UInt8
        /// The manifest has an entry for it.
        static let entry = Marks(rawValue: 1)
        /// Its entry has a local path (stored, revalidated, carried over or reserved).
        static let path = Marks(rawValue: 2)
        /// Its entry has a status (fetched; not a failure or a reservation).
        static let status = Marks(rawValue: 4)
        /// Linked in scope: it gets a reserved path if it is not stored (``reservePaths(mapper:)``).
        static let candidate = Marks(rawValue: 8)
        /// As a candidate, a requisite.
        static let candidateRequisite = Marks(rawValue: 16)
        /// A redirect source (``aliases``).
        static let alias = Marks(rawValue: 32)
        /// It answered 404 or 410 after a 2xx last time (``goneStatuses``).
        static let gone = Marks(rawValue: 64)
    }

    var frontier: Frontier
    /// The files the per-URL records go to.
    let spills: CrawlSpills
    /// By id.
    var marks = ChunkedArray<Marks>()
    /// By id: where its local path is in ``CrawlSpills/paths`` (offset << 16 | length), 0 for none.
    var pathRefs = ChunkedArray<UInt64>()
    /// By id: the fingerprint of its local path, 0 for none; empty unless ``keepsPathHashes``.
    var pathHashes = ChunkedArray<UInt64>()
    /// The documents to rewrite, in the order they were recorded.
    var documents = DocumentRuns()
    private(set) var failures: [CrawlReport.Failure] = []
    /// Each failed URL's typed failure (the first), for a start URL's exit code and hint and
    /// for the placeholder page of a linked one.
    var failedByID: [UInt32: CrawlFailure] = [:]
    private(set) var pages = 0
    private(set) var requisites = 0
    private(set) var bytes: Int64 = 0
    private(set) var finishReason: FinishReason?
    /// Redirect sources → targets.
    var aliases: [UInt32: UInt32] = [:]
    private var outOfScope: Set<String> = []
    private(set) var outOfScopeCount = 0
    /// How each stored URL compares with the previous snapshot.
    enum Change: String, Sendable { case added, changed, unchanged }
    private(set) var changes: [Change: Int] = [:]
    private(set) var robots: [String: RobotsTxt] = [:]
    /// The rules of `robots` that apply to the run's user agent, by origin (chosen once).
    private var robotsRules: [String: (userAgent: String, rules: [RobotsTxt.Rule])] = [:]
    /// The last URL's robots rules: nearly every URL has the origin of the one before it, and
    /// this check builds no origin string.
    private var lastRobots: (url: WebURL, userAgent: String, rules: [RobotsTxt.Rule])?
    /// In-scope page links that a crawler-trap rule (or the depth) held back, by id: the first
    /// time each was held back.
    var heldBack: [UInt32: HeldBack] = [:]
    /// Items that were in flight when a halted run cancelled its transfers (``halt(_:)``): not
    /// fetched, not failed.
    private(set) var abandoned: [FrontierItem] = []

    /// Why a link was held back.
    struct HeldBack: Sendable, Equatable {
        let rule: TrapRule
        let detail: String
        let referrer: String
    }

    /// - Parameters:
    ///   - frontier: the crawl's frontier; its registry's texts should be ``CrawlSpills/urls``.
    ///   - spills: where the per-URL records go.
    ///   - activeLimit: the most URLs in flight at once (nil: as many as there are workers).
    /// - Parameter keepsPathHashes: keep ``pathHashes``: a refresh compares them with the
    ///   previous snapshot's; a first mirror has none to compare with, and computes the few it
    ///   needs from the paths themselves (8 bytes a URL less; issue #27).
    /// - Parameter announceKnown: told how many URLs the frontier has taken in, each time that
    ///   number doubles (see ``announceKnown``).
    init(frontier: Frontier, spills: CrawlSpills, activeLimit: (@Sendable () -> Int)? = nil, keepsPathHashes: Bool = true,
         announceKnown: (@Sendable (Int) -> Void)? = nil) {
        self.frontier = frontier
        self.spills = spills
        self.activeLimit = activeLimit
        self.keepsPathHashes = keepsPathHashes
        self.announceKnown = announceKnown
    }

    /// Told how many URLs the frontier has taken in (``Frontier/seenCount``), each time that
    /// number doubles: the crawl passes it to ``MirrorHTTP/HTTPClient/expectTransfers(_:)``,
    /// so that on a near link a site with many URLs moves to HTTP/1.1 as soon as its first
    /// pages show it, and a small one stays on its HTTP/2 connection (``MirrorHTTP`` `NearLinkSwitch`).
    private let announceKnown: (@Sendable (Int) -> Void)?
    /// The count at which ``announceKnown`` is told next.
    private var nextAnnouncement = 1

    /// Whether ``pathHashes`` is kept (see ``init(frontier:spills:activeLimit:keepsPathHashes:)``).
    let keepsPathHashes: Bool

    /// The most URLs in flight at once, read afresh at each hand-out (nil: no limit but the
    /// number of workers). See ``Crawler/activeLimit(window:)``.
    private let activeLimit: (@Sendable () -> Int)?

    /// Whether a worker may take another URL now: fewer are in flight than ``activeLimit``.
    private var mayHandOut: Bool {
        guard let activeLimit else { return true }
        return frontier.inFlightCount < activeLimit()
    }

    func next() -> FrontierAction {
        let action = frontier.next()
        if case .finished(let reason) = action {
            finishReason = reason
            wakeWaiters()
        }
        return action
    }

    func cancel() {
        frontier.cancel()
        wakeWaiters()
    }

    /// Starts no new fetch and lets the crawl finish with `reason` once what is in flight has
    /// ended (see ``Frontier/halt(_:)``).
    func halt(_ reason: FinishReason) {
        frontier.halt(reason)
        wakeWaiters()
    }

    /// The reason the run was halted with, if it was.
    var haltReason: FinishReason? { frontier.haltedBecause }

    /// What a crawl that ended early did not fetch: the queued items and those abandoned in flight.
    var unfetched: [FrontierItem] { frontier.unfetched + abandoned }

    /// Workers with nothing to do (the queue is empty, fetches are in flight) park here until
    /// the frontier changes: an item completes or fails, which may queue links or end the crawl.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Set while a worker's result is recorded by a call that then asks for its next action
    /// (``wakeWaiters()`` leaves one queued URL and one place in flight to it).
    private var callerTakesNext = false
    /// How many times a parked worker was resumed (a statistic the tests read).
    private(set) var wakeUps = 0

    /// The next fetch, or the end of the crawl; parks while the queue is empty and fetches are
    /// in flight. Checking and parking happen in one actor turn, so no wake-up is missed.
    ///
    /// - Parameter robotsAgent: the user agent to check robots.txt rules for, or nil when they
    ///   are ignored. A URL they disallow is recorded as failed (`robots`) here, without a
    ///   round trip to the worker.
    func nextAction(robotsAgent: String? = nil) async -> FrontierAction {
        while true {
            // At the limit, the worker parks before it takes a URL: its fetch would only wait
            // in the engine's queue, holding a task's frames and a transfer.
            if frontier.inFlightCount > 0, !mayHandOut, !frontier.isCancelled, frontier.haltedBecause == nil {
                await withCheckedContinuation { waiters.append($0) }
                continue
            }
            let action = next()
            if case .fetch(let item) = action, let robotsAgent, !robotsAllow(item.url, userAgent: robotsAgent) {
                failed(item, .init(kind: .robots, cause: "disallowed by robots.txt"))
                continue
            }
            guard case .wait = action else { return action }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Resumes parked workers: as many as there are queued URLs for them, or all of them
    /// when the crawl may be over (nothing in flight or queued, cancelled, finished) so that each sees
    /// the end. Waking every worker on every completion would make 64 workers spin through
    /// the actor for each URL. With every worker busy, asks for more (``enableSpawning(workers:most:spawn:)``).
    func wakeWaiters() {
        let ending = finishReason != nil || frontier.isCancelled || frontier.haltedBecause != nil
        // A worker that recorded its result and asks for the next URL in the same turn
        // (`storedThenNext`, `revalidatedThenNext`) takes the room its fetch freed: waking a
        // parked worker for it made one resume, actor hop and park per response.
        let reserved = callerTakesNext ? 1 : 0
        let room = activeLimit.map { max(0, $0() - frontier.inFlightCount - reserved) } ?? .max
        let queued = max(0, frontier.queuedCount - reserved)
        var woken = 0
        if !waiters.isEmpty {
            // Nothing in flight and nothing queued: the next worker to ask finishes the crawl.
            // (With URLs queued, the workers woken for them, or the caller, take them; one that
            // finds a limit reached finishes the crawl, which wakes everyone.)
            let wakeAll = ending || (frontier.inFlightCount == 0 && frontier.queuedCount == 0)
            var count = wakeAll ? waiters.count : min(waiters.count, queued)
            if !wakeAll { count = min(count, room) }
            if count > 0 {
                let parked = waiters.prefix(count)
                waiters.removeFirst(count)
                for waiter in parked { waiter.resume() }
                woken = count
                wakeUps += count
            }
        }
        // More workers only when none is parked: a parked one waits for the limit or for work.
        guard let spawn, waiters.isEmpty, !ending, workerCount < mostWorkers else { return }
        let wanted = min(queued - woken, room - woken, mostWorkers - workerCount)
        guard wanted > 0 else { return }
        workerCount += wanted
        spawn(wanted)
    }

    /// Asks for workers as the crawl needs them (``wakeWaiters()``): a URL is queued, no worker
    /// is parked, and ``activeLimit`` allows another one in flight. A crawl started all 256
    /// workers at once before, though a near origin keeps 32 busy: the tasks, each parking
    /// at once, cost a millisecond at the start of every run.
    /// - Parameters:
    ///   - workers: how many the caller started.
    ///   - most: the most there may be (`--jobs`).
    ///   - spawn: starts that many more (called on the actor: it must only hand the request on).
    func enableSpawning(workers: Int, most: Int, spawn: @escaping @Sendable (Int) -> Void) {
        workerCount = workers
        mostWorkers = most
        self.spawn = spawn
    }

    /// Workers started and the most there may be (``enableSpawning(workers:most:spawn:)``).
    private var workerCount = 0
    private var mostWorkers = 0
    private var spawn: (@Sendable (Int) -> Void)?

    var failureCount: Int { failures.count }

    /// A failure that makes the whole run pointless (the disk is full): the crawl stops, and
    /// the run publishes nothing.
    private(set) var fatal: StoreError?

    func abort(_ error: StoreError) {
        if fatal == nil { fatal = error }
        frontier.cancel()
        wakeWaiters()
    }

    /// A fresh name for a download in progress inside `directory` (relative to the snapshot;
    /// empty for its root). Each worker numbers its own downloads, so no two names collide and
    /// no trip through this actor is needed. The `:` makes it a name that
    /// ``MirrorStore/PathMapper`` never gives a mirrored file, so a download can never
    /// overwrite one.
    /// - Parameters:
    ///   - directory: the folder, relative to the snapshot.
    ///   - worker: the worker's number.
    ///   - sequence: the worker's count of downloads so far.
    static func temporaryName(in directory: String, worker: Int, sequence: Int) -> String {
        let name = ".part:\(worker)-\(sequence)"
        return directory.isEmpty ? name : directory + "/" + name
    }

    func setRobots(_ rules: RobotsTxt, origin: String) {
        robots[origin] = rules
        robotsRules[origin] = nil
        lastRobots = nil
    }

    func robotsAllow(_ url: WebURL, userAgent: String) -> Bool {
        if let last = lastRobots, last.userAgent == userAgent, last.url.host == url.host, last.url.port == url.port,
           last.url.scheme == url.scheme {
            return RobotsTxt.isAllowed(url.requestTarget, rules: last.rules)
        }
        let origin = url.origin
        let chosen: [RobotsTxt.Rule]
        if let known = robotsRules[origin], known.userAgent == userAgent {
            chosen = known.rules
        } else if let rules = robots[origin] {
            chosen = rules.rules(for: userAgent)
            robotsRules[origin] = (userAgent, chosen)
        } else {
            chosen = []
        }
        lastRobots = (url, userAgent, chosen)
        return RobotsTxt.isAllowed(url.requestTarget, rules: chosen)
    }

    /// A fetched file was stored at `localPath`; its links (if it is a document) are offered
    /// to the frontier.
    func stored(
        _ item: FrontierItem, finalURL: WebURL, localPath: String, response: HTTPResponse,
        links: [DiscoveredLink], documentKind: DocumentKind?, change: Change, rewrite: DeferredRewrite.Draft? = nil,
        originalOnly: Bool = false
    ) {
        changes[change, default: 0] += 1
        offer(links, from: item)
        frontier.complete(item, bytes: response.bodyBytes)
        wakeWaiters()
        bytes += response.bodyBytes
        if item.isRequisite { requisites += 1 } else { pages += 1 }
        var references: [String] = []
        var seen = Set<WebURL>()
        references.reserveCapacity(links.count)
        for link in links where seen.insert(link.url).inserted {
            references.append(link.isRequisite ? "+" + link.url.string : link.url.string)
        }
        let entry = ManifestEntry(
            url: finalURL, localPath: localPath, status: response.status,
            contentType: response.headers["Content-Type"], length: response.bodyBytes, sha256: response.sha256,
            etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"], fetchedAt: Date(),
            error: nil, references: references)
        let id = finalURL == item.url ? (item.id ?? frontier.register(finalURL).id) : frontier.register(finalURL).id
        record(entry, id: id)
        if let documentKind {
            var document = Document(url: finalURL, localPath: localPath, kind: documentKind,
                                    contentType: response.headers["Content-Type"], sha256: response.sha256,
                                    originalOnly: originalOnly)
            document.deferred = rewrite.flatMap { DeferredRewrite($0) }
            spill(document, id: id)
        }
    }

    /// ``stored(_:finalURL:localPath:response:links:documentKind:change:rewrite:originalOnly:)``
    /// and then ``nextAction(robotsAgent:)``, in one call. A worker that asked separately queued
    /// its request for work behind every completion that arrived with its own: a burst of 256
    /// responses sent no new request until the last of them was recorded, so requests left in
    /// waves and the wire stood idle while the cores worked.
    func storedThenNext(
        _ item: FrontierItem, finalURL: WebURL, localPath: String, response: HTTPResponse,
        links: [DiscoveredLink], documentKind: DocumentKind?, change: Change, rewrite: DeferredRewrite.Draft?,
        originalOnly: Bool, robotsAgent: String?
    ) async -> FrontierAction {
        callerTakesNext = true
        stored(item, finalURL: finalURL, localPath: localPath, response: response, links: links, documentKind: documentKind,
               change: change, rewrite: rewrite, originalOnly: originalOnly)
        callerTakesNext = false
        return await nextAction(robotsAgent: robotsAgent)
    }

    /// A `304 Not Modified`: the previous snapshot's file was linked into this one. Its stored
    /// references keep the crawl going, so every URL is still revalidated.
    /// - Parameter copyLinked: the previous snapshot's rewritten copy of this document is linked
    ///   under its path already (``Document/previousCopyLinked``).
    func revalidated(_ item: FrontierItem, previous: ManifestEntry, documentKind: DocumentKind?, copyLinked: Bool = false) {
        offer(frontier.unsettledLinks(amongStored: previous.references, from: item), from: item)
        frontier.complete(item, bytes: 0)
        wakeWaiters()
        if item.isRequisite { requisites += 1 } else { pages += 1 }
        changes[.unchanged, default: 0] += 1
        var entry = previous
        entry.fetchedAt = Date()
        entry.stale = nil  // checked now
        // The 304 was for this very URL (a redirect is never revalidated), so it is the key.
        let id = item.id ?? frontier.register(item.url).id
        record(entry, id: id, carried: true)
        if let documentKind, let localPath = previous.localPath, let sha = previous.sha256 {
            spill(Document(url: item.url, localPath: localPath, kind: documentKind, contentType: previous.contentType,
                           sha256: sha, isUnchanged: true, originalOnly: true, previousCopyLinked: copyLinked), id: id)
        }
    }

    /// ``revalidated(_:previous:documentKind:)`` and then ``nextAction(robotsAgent:)``, in one
    /// call (see ``storedThenNext(_:finalURL:localPath:response:links:documentKind:change:rewrite:originalOnly:robotsAgent:)``).
    func revalidatedThenNext(
        _ item: FrontierItem, previous: ManifestEntry, documentKind: DocumentKind?, copyLinked: Bool = false, robotsAgent: String?
    ) async -> FrontierAction {
        callerTakesNext = true
        revalidated(item, previous: previous, documentKind: documentKind, copyLinked: copyLinked)
        callerTakesNext = false
        return await nextAction(robotsAgent: robotsAgent)
    }

    /// An entry a run that stopped early keeps from the previous snapshot (see
    /// ``Crawler/carryOver(from:state:staging:originals:)``): a stale file, whose in-scope
    /// references become candidates for a local path like any link.
    func carry(_ entry: ManifestEntry, kind: DocumentKind?) {
        let id = frontier.register(key: entry.url).id
        record(entry, id: id)
        let depth = (entry.stale?.depth ?? 0) + 1
        for reference in entry.references {
            let isRequisite = reference.hasPrefix("+")
            let key = isRequisite ? String(reference.dropFirst()) : reference
            if let known = frontier.registry.id(forKey: key), mark(known).contains(.candidate) { continue }
            guard let url = WebURL(key) else { continue }
            switch frontier.scope.classify(url, isRequisite: isRequisite, depth: isRequisite ? depth - 1 : depth) {
            case .page, .requisite, .tooDeep:
                let target = frontier.register(url).id
                setMarks(target, isRequisite ? [.candidate, .candidateRequisite] : [.candidate])
            default:
                break
            }
        }
        if let kind, let localPath = entry.localPath, let sha = entry.sha256, let url = WebURL(entry.url) {
            spill(Document(url: url, localPath: localPath, kind: kind, contentType: entry.contentType,
                           sha256: sha, isUnchanged: true, originalOnly: true), id: id)
        }
    }

    /// A redirect of the previous snapshot that a run which stopped early keeps.
    func carryRedirect(_ entry: ManifestEntry) {
        guard let target = entry.references.first else { return }
        let id = frontier.register(key: entry.url).id
        record(entry, id: id)
        aliases[id] = frontier.register(key: target).id
        setMarks(id, .alias)
    }

    /// `item` redirected to `finalURL`. Returns false when `finalURL` is fetched by another
    /// task already; links to `item` then follow that copy.
    func redirected(_ item: FrontierItem, to finalURL: WebURL, status: Int) -> Bool {
        let id = item.id ?? frontier.register(item.url).id
        aliases[id] = frontier.register(finalURL).id
        setMarks(id, .alias)
        record(ManifestEntry(
            url: item.url, localPath: nil, status: status, contentType: nil, length: nil, sha256: nil,
            etag: nil, lastModified: nil, fetchedAt: Date(), error: nil, references: [finalURL.string]), id: id)
        return frontier.redirected(item, to: finalURL)
    }

    /// A redirect target that was fetched elsewhere: nothing more to do for `item`.
    func completeAlias(_ item: FrontierItem) {
        frontier.complete(item, bytes: 0)
        wakeWaiters()
    }

    /// A URL of the previous snapshot that answered 404/410: it is left out of the new snapshot
    /// (counted as removed), and links to it keep a reserved local path.
    func gone(_ item: FrontierItem, status: Int) {
        frontier.fail(item)
        wakeWaiters()
        let id = item.id ?? frontier.register(item.url).id
        goneStatuses[id] = status
        setMarks(id, .gone)
    }

    /// URLs of the previous snapshot that answered 404 or 410 this time, with that status.
    var goneStatuses: [UInt32: Int] = [:]

    /// Records a URL that failed.
    func failed(_ item: FrontierItem, _ failure: CrawlFailure) {
        frontier.fail(item)
        wakeWaiters()
        if failure.kind == .cancelled, frontier.haltedBecause != nil {
            // Cut off by a halted run: not fetched rather than failed (a refresh carries the
            // previous copy over).
            abandoned.append(item)
            return
        }
        let id = item.id ?? frontier.register(item.url).id
        if failedByID[id] == nil { failedByID[id] = failure }
        failures.append(.init(url: item.url.string, kind: failure.kind.name, cause: failure.cause, referrer: item.referrerText))
        record(ManifestEntry(
            url: item.url, localPath: nil, status: nil, contentType: nil, length: nil, sha256: nil,
            etag: nil, lastModified: nil, fetchedAt: Date(), error: "\(failure.kind.name): \(failure.cause)", references: []), id: id)
    }

    /// The typed failure of a URL that failed, by its normalised text.
    func failure(forKey key: String) -> CrawlFailure? {
        frontier.registry.id(forKey: key).flatMap { failedByID[$0] }
    }

    /// Offers a document's links to the frontier and remembers what it refused or queued.
    func offer(_ links: [DiscoveredLink], from item: FrontierItem) {
        let results = frontier.discover(links, from: item)
        for (link, result) in zip(links, results) {
            switch result {
            case .refused(.outOfScope): noteOutOfScope(link.url)
            case .queued(let queued):
                let id = queued.id ?? frontier.register(queued.url).id
                setMarks(id, [.candidate])
                if queued.isRequisite { setMarks(id, .candidateRequisite) } else { clearMarks(id, .candidateRequisite) }
            case .refused(.tooDeep):
                let id = frontier.register(link.url.withoutFragment).id
                if !mark(id).contains(.candidate) { setMarks(id, link.isRequisite ? [.candidate, .candidateRequisite] : .candidate) }
                let limit = frontier.scope.configuration.maxDepth.map { " (\($0))" } ?? ""
                noteHeldBack(id, rule: .depth, detail: "more page links from the start than the depth limit\(limit)", from: item)
            case .heldBack(let rule, let detail):
                let id = frontier.register(link.url.withoutFragment).id
                if !mark(id).contains(.candidate) { setMarks(id, .candidate) }
                noteHeldBack(id, rule: rule, detail: detail, from: item)
            case .tooLong(let length, let limit):
                // Over the URL length limit: reported, never fetched.
                if reportedLong.insert(link.url.string).inserted {
                    failures.append(.init(url: String(link.url.string.prefix(200)) + "…", kind: FailureKind.urlTooLong.name,
                                          cause: "URL is \(length) bytes long, more than the limit of \(limit)",
                                          referrer: item.url.string))
                }
            default: break
            }
        }
        if let announceKnown, frontier.seenCount >= nextAnnouncement {
            announceKnown(frontier.seenCount)
            nextAnnouncement = frontier.seenCount * 2
        }
    }

    private var reportedLong: Set<String> = []

    private func noteHeldBack(_ id: UInt32, rule: TrapRule, detail: String, from item: FrontierItem) {
        guard heldBack[id] == nil else { return }
        heldBack[id] = HeldBack(rule: rule, detail: detail, referrer: item.url.string)
    }

    /// The held-back links that were never fetched after all (another link may have reached
    /// the same URL within the rules), sorted by URL.
    func heldBackUnfetched() -> [(url: String, held: HeldBack)] {
        heldBack.filter { id, _ in !mark(id).isSuperset(of: [.path, .status]) }
            .map { (frontier.registry.text(of: $0.key), $0.value) }
            .sorted { $0.0 < $1.0 }
    }

    /// Counts an out-of-scope link of one document (each document offers a URL once, on a
    /// first run from its references, on a refresh from the manifest: the same count).
    func noteOutOfScope(_ url: WebURL) {
        outOfScopeCount += 1
        if outOfScope.count < 10_000 { outOfScope.insert(url.string) }
    }

    var outOfScopeList: [String] { outOfScope.sorted() }

    var stats: FrontierStats { frontier.stats }
    var trapPeaks: TrapPeaks { frontier.trapPeaks }

}
