import Foundation
import MirrorCore
import MirrorHTTP
import MirrorStore

/// The mutable state of one crawl, behind an actor: the frontier, the manifest being built,
/// failures and counters. Fetch tasks report into it; the driver asks it what to fetch next.
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
        /// For a document revalidated with 304: its stored references (with the `+` requisite
        /// marker), so that the rewrite can be skipped when none of them moved.
        var unchangedReferences: [String]? = nil
        /// For a document parsed during this crawl: its references, ready to be rewritten
        /// without a second parse (targets numbered in ``CrawlState/urls``).
        var deferred: DeferredRewrite? = nil
        /// Only the original (in the pack, or under ``MirrorStore/SecureFileSystem/rawPath(sha256:)``) is on disk so
        /// far, not the file under ``localPath``: a body received in memory, or a 304.
        var originalOnly = false
    }

    var frontier: Frontier
    private(set) var manifest = Manifest()
    private(set) var failures: [CrawlReport.Failure] = []
    /// Each failed URL's typed failure (the first), for a start URL's exit code and hint and
    /// for the placeholder page of a linked one.
    private(set) var failedByURL: [String: CrawlFailure] = [:]
    private(set) var documents: [Document] = []
    /// The URLs that documents' ``Document/deferred`` rewrites point at.
    private(set) var urls = URLTable()
    /// Manifest reference texts by URL, one string each (`+`-marked for requisites): thousands
    /// of pages list the same stylesheet, and each copy would cost a heap string.
    private var pageReferenceTexts: [WebURL: String] = [:]
    private var requisiteReferenceTexts: [WebURL: String] = [:]
    private(set) var pages = 0
    private(set) var requisites = 0
    private(set) var bytes: Int64 = 0
    private(set) var finishReason: FinishReason?
    private(set) var aliases: [String: String] = [:]
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
    /// In-scope URLs that were queued, or refused only for depth: if they end up unfetched,
    /// they get a reserved local path (see ``reservePaths(mapper:taken:)``). Value: is a requisite.
    private var candidates: [String: Bool] = [:]
    /// In-scope page links that a crawler-trap rule (or the depth) held back, by URL: the first
    /// time each was held back.
    private(set) var heldBack: [String: HeldBack] = [:]
    /// Items that were in flight when a halted run cancelled its transfers (``halt(_:)``): not
    /// fetched, not failed.
    private(set) var abandoned: [FrontierItem] = []

    /// Why a link was held back.
    struct HeldBack: Sendable, Equatable {
        let rule: TrapRule
        let detail: String
        let referrer: String
    }

    init(frontier: Frontier) {
        self.frontier = frontier
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

    /// The next fetch, or the end of the crawl; parks while the queue is empty and fetches are
    /// in flight. Checking and parking happen in one actor turn, so no wake-up is missed.
    ///
    /// - Parameter robotsAgent: the user agent to check robots.txt rules for, or nil when they
    ///   are ignored. A URL they disallow is recorded as failed (`robots`) here, without a
    ///   round trip to the worker.
    func nextAction(robotsAgent: String? = nil) async -> FrontierAction {
        while true {
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
    /// when the crawl may be over (nothing in flight, cancelled, finished) so that each sees
    /// the end. Waking every worker on every completion would make 64 workers spin through
    /// the actor for each URL.
    private func wakeWaiters() {
        guard !waiters.isEmpty else { return }
        let wakeAll = finishReason != nil || frontier.isCancelled || frontier.haltedBecause != nil || frontier.inFlightCount == 0
        let count = wakeAll ? waiters.count : min(waiters.count, frontier.queuedCount)
        guard count > 0 else { return }
        let parked = waiters.prefix(count)
        waiters.removeFirst(count)
        for waiter in parked { waiter.resume() }
    }

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
            references.append(referenceText(link))
        }
        let entry = ManifestEntry(
            url: finalURL, localPath: localPath, status: response.status,
            contentType: response.headers["Content-Type"], length: response.bodyBytes, sha256: response.sha256,
            etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"], fetchedAt: Date(),
            error: nil, references: references)
        manifest.upsert(entry)
        if let documentKind {
            documents.append(Document(url: finalURL, localPath: localPath, kind: documentKind,
                                      contentType: response.headers["Content-Type"], sha256: response.sha256,
                                      deferred: rewrite.flatMap { DeferredRewrite($0, table: &urls) }, originalOnly: originalOnly))
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
        stored(item, finalURL: finalURL, localPath: localPath, response: response, links: links, documentKind: documentKind,
               change: change, rewrite: rewrite, originalOnly: originalOnly)
        return await nextAction(robotsAgent: robotsAgent)
    }

    /// The manifest text of a link: its URL, `+`-prefixed for a requisite; shared by all the
    /// documents that list it.
    private func referenceText(_ link: DiscoveredLink) -> String {
        let url = link.url
        if link.isRequisite {
            if let text = requisiteReferenceTexts[url] { return text }
            let text = "+" + url.string
            requisiteReferenceTexts[url] = text
            return text
        }
        if let text = pageReferenceTexts[url] { return text }
        pageReferenceTexts[url] = url.string
        return url.string
    }

    /// A `304 Not Modified`: the previous snapshot's file was linked into this one. Its stored
    /// references keep the crawl going, so every URL is still revalidated.
    func revalidated(_ item: FrontierItem, previous: ManifestEntry, documentKind: DocumentKind?) {
        var links: [DiscoveredLink] = []
        for reference in previous.references {
            let isRequisite = reference.hasPrefix("+")
            let text = isRequisite ? String(reference.dropFirst()) : reference
            // Stored references are normalised URL text without fragment: most are known by now
            // (the stylesheet every page links), and need no parsing to be dropped.
            if frontier.isSettled(text, isRequisite: isRequisite) { continue }
            if let url = WebURL(text) {
                links.append(DiscoveredLink(url: url, isRequisite: isRequisite))
            }
        }
        offer(links, from: item)
        frontier.complete(item, bytes: 0)
        wakeWaiters()
        if item.isRequisite { requisites += 1 } else { pages += 1 }
        changes[.unchanged, default: 0] += 1
        var entry = previous
        entry.fetchedAt = Date()
        entry.stale = nil  // checked now
        manifest.upsert(entry)
        if let documentKind, let localPath = previous.localPath, let sha = previous.sha256 {
            // The 304 was for this very URL (a redirect is never revalidated), so it is the key.
            documents.append(Document(url: item.url, localPath: localPath, kind: documentKind, contentType: previous.contentType,
                                      sha256: sha, unchangedReferences: previous.references, originalOnly: true))
        }
    }

    /// ``revalidated(_:previous:documentKind:)`` and then ``nextAction(robotsAgent:)``, in one
    /// call (see ``storedThenNext(_:finalURL:localPath:response:links:documentKind:change:rewrite:originalOnly:robotsAgent:)``).
    func revalidatedThenNext(
        _ item: FrontierItem, previous: ManifestEntry, documentKind: DocumentKind?, robotsAgent: String?
    ) async -> FrontierAction {
        revalidated(item, previous: previous, documentKind: documentKind)
        return await nextAction(robotsAgent: robotsAgent)
    }

    /// Entries a run that stopped early keeps from the previous snapshot (see
    /// ``Crawler/carryOver(from:state:staging:originals:)``): stale files, whose references
    /// become candidates for a local path like any link, and the redirects it had recorded.
    func carry(_ entries: [(ManifestEntry, DocumentKind?)], redirects: [ManifestEntry]) {
        for (entry, kind) in entries {
            manifest.upsert(entry)
            for reference in entry.references {
                let isRequisite = reference.hasPrefix("+")
                let key = isRequisite ? String(reference.dropFirst()) : reference
                if candidates[key] == nil { candidates[key] = isRequisite }
            }
            if let kind, let localPath = entry.localPath, let sha = entry.sha256, let url = WebURL(entry.url) {
                documents.append(Document(url: url, localPath: localPath, kind: kind, contentType: entry.contentType,
                                          sha256: sha, unchangedReferences: entry.references, originalOnly: true))
            }
        }
        for entry in redirects {
            guard let target = entry.references.first else { continue }
            manifest.upsert(entry)
            aliases[entry.url] = target
        }
    }

    /// `item` redirected to `finalURL`. Returns false when `finalURL` is fetched by another
    /// task already; links to `item` then follow that copy.
    func redirected(_ item: FrontierItem, to finalURL: WebURL, status: Int) -> Bool {
        aliases[item.url.string] = finalURL.string
        manifest.upsert(ManifestEntry(
            url: item.url, localPath: nil, status: status, contentType: nil, length: nil, sha256: nil,
            etag: nil, lastModified: nil, fetchedAt: Date(), error: nil, references: [finalURL.string]))
        return frontier.redirected(item, to: finalURL)
    }

    /// A redirect target that was fetched elsewhere: nothing more to do for `item`.
    func completeAlias(_ item: FrontierItem) {
        frontier.complete(item, bytes: 0)
        wakeWaiters()
    }

    /// A URL of the previous snapshot answered 404/410: it is left out of the new snapshot
    /// (counted as removed), and links to it keep a reserved local path.
    func gone(_ item: FrontierItem, status: Int) {
        frontier.fail(item)
        wakeWaiters()
        goneStatuses[item.url.string] = status
    }

    /// URLs of the previous snapshot that answered 404 or 410 this time, with that status.
    private(set) var goneStatuses: [String: Int] = [:]

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
        if failedByURL[item.url.string] == nil { failedByURL[item.url.string] = failure }
        failures.append(.init(url: item.url.string, kind: failure.kind.name, cause: failure.cause, referrer: item.referrer?.string))
        manifest.upsert(ManifestEntry(
            url: item.url, localPath: nil, status: nil, contentType: nil, length: nil, sha256: nil,
            etag: nil, lastModified: nil, fetchedAt: Date(), error: "\(failure.kind.name): \(failure.cause)", references: []))
    }

    /// Offers a document's links to the frontier and remembers what it refused or queued.
    func offer(_ links: [DiscoveredLink], from item: FrontierItem) {
        let results = frontier.discover(links, from: item)
        for (link, result) in zip(links, results) {
            switch result {
            case .refused(.outOfScope): noteOutOfScope(link.url)
            case .queued(let queued): candidates[queued.url.string] = queued.isRequisite
            case .refused(.tooDeep):
                if candidates[link.url.string] == nil { candidates[link.url.string] = link.isRequisite }
                let limit = frontier.scope.configuration.maxDepth.map { " (\($0))" } ?? ""
                noteHeldBack(link.url, rule: .depth, detail: "more page links from the start than the depth limit\(limit)", from: item)
            case .heldBack(let rule, let detail):
                if candidates[link.url.string] == nil { candidates[link.url.string] = false }
                noteHeldBack(link.url, rule: rule, detail: detail, from: item)
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
    }

    private var reportedLong: Set<String> = []

    private func noteHeldBack(_ url: WebURL, rule: TrapRule, detail: String, from item: FrontierItem) {
        let key = url.string
        guard heldBack[key] == nil else { return }
        heldBack[key] = HeldBack(rule: rule, detail: detail, referrer: item.url.string)
    }

    /// The held-back links that were never fetched after all (another link may have reached
    /// the same URL within the rules), sorted by URL.
    func heldBackUnfetched() -> [(url: String, held: HeldBack)] {
        heldBack.filter { key, _ in manifest.entry(forKey: key)?.localPath == nil || manifest.entry(forKey: key)?.status == nil }
            .sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
    }

    /// Counts an out-of-scope link of one document (each document offers a URL once, on a
    /// first run from its references, on a refresh from the manifest: the same count).
    func noteOutOfScope(_ url: WebURL) {
        outOfScopeCount += 1
        if outOfScope.count < 10_000 { outOfScope.insert(url.string) }
    }

    var outOfScopeList: [String] { outOfScope.sorted() }

    /// A local path given to a URL that was linked but not mirrored.
    struct Reservation: Sendable, Equatable {
        let path: String
        let isRequisite: Bool
        /// Why it is not in the mirror; its ``NotMirroredReason/manifestText`` is the manifest's.
        let reason: NotMirroredReason
    }

    /// Gives every in-scope URL that was linked but not mirrored — beyond the depth or page
    /// limit, or failed with an HTTP or network error — the local path it would have, and records
    /// it in the manifest without a status. Pages then link to it locally, so the copy holds no
    /// in-scope link to the origin, and `serve --live` can fetch it when a browser asks. That
    /// includes URLs robots.txt disallows and in-scope URLs that redirect out of scope: their
    /// placeholder says so.
    ///
    /// - Parameter taken: the paths of the stored files (asked for only when a URL needs one).
    /// - Returns: URL → reservation.
    func reservePaths(mapper: PathMapper, taken: () -> Set<String>) -> [String: Reservation] {
        // Most candidates were stored: only the rest are sorted (for a deterministic order).
        let unstored = candidates.filter { key, _ in
            guard let entry = manifest.entry(forKey: key) else { return true }
            return entry.localPath == nil && aliases[key] == nil
        }
        guard !unstored.isEmpty else { return [:] }
        var reserved: [String: Reservation] = [:]
        var used = taken()
        let unfetchedKeys = frontier.haltedBecause == nil ? [] : Set(unfetched.map(\.url.string))
        for (key, isRequisite) in unstored.sorted(by: { $0.key < $1.key }) {
            guard let url = WebURL(key) else { continue }
            let path = mapper.relativePath(for: url, contentType: isRequisite ? nil : "text/html")
            guard used.insert(path).inserted else { continue }
            let reason: NotMirroredReason
            if let failure = failedByURL[key] {
                reason = .failed(failure.kind, cause: failure.cause)
            } else if let status = goneStatuses[key] {
                reason = .gone(status: status)
            } else if let held = heldBack[key] {
                reason = .heldBack(held)
            } else if unfetchedKeys.contains(key) {
                reason = .stopped
            } else {
                reason = .beyondLimits
            }
            reserved[key] = Reservation(path: path, isRequisite: isRequisite, reason: reason)
            manifest.upsert(ManifestEntry(url: url, localPath: path, status: nil, fetchedAt: nil, error: reason.manifestText))
        }
        return reserved
    }

    /// URL → local path for every stored URL and every redirect that leads to one.
    func localPaths() -> [String: String] {
        var paths: [String: String] = [:]
        for entry in manifest {
            if let path = entry.localPath { paths[entry.url] = path }
        }
        for (from, to) in aliases {
            var target = to
            var hops = 0
            while paths[target] == nil, let next = aliases[target], hops < 20 {
                target = next
                hops += 1
            }
            if let path = paths[target] { paths[from] = path }
        }
        return paths
    }

    var stats: FrontierStats { frontier.stats }
    var trapPeaks: TrapPeaks { frontier.trapPeaks }
}
