import MirrorCore

/// The crawl frontier: which URLs to fetch, in which order, and when the crawl is over.
///
/// A value-type state machine in the style of swift-nio's: the crawl loop feeds it inputs
/// (``seed(_:)``, ``discover(_:from:)``, ``complete(_:bytes:)``, ``fail(_:)``,
/// ``redirected(_:to:)``, ``cancel()``) and asks ``next()`` for an action. It does no I/O.
///
/// ## Order
/// Breadth-first: the lowest depth first, first-in first-out within a depth. A page's
/// requisites get the page's own depth and its links one more, so requisites are fetched
/// before any deeper page.
///
/// ## Deduplication
/// The key is the normalised URL without fragment (`WebURL.withoutFragment.string`), so
/// `/a#x`, `/a#y` and `HTTP://Host:80/./a` are one URL. **A URL is fetched at most once.**
/// If any reference to a still-queued URL is a page-scope link, it is fetched, parsed and
/// followed as a page (an `<iframe src>` that is also linked with `<a href>`), at the lower of
/// the two depths; once handed out, its kind no longer changes. A refused URL is not
/// remembered, so a later reference in scope (a requisite, or a page at a smaller depth) can
/// still queue it.
///
/// ## Ending
/// ``next()`` answers `.finished` only when nothing is in flight, so no fetch is ever lost.
/// Limits and ``cancel()`` stop new fetches; the loop then gets `.wait` until every in-flight
/// item is completed or failed. Once finished, the frontier stays finished.
public struct Frontier: Sendable {
    /// The lifecycle of one known URL.
    enum State: Sendable, Equatable {
        case queued, inFlight, done, failed
        /// The final URL of a redirect: known, never fetched on its own.
        case redirectTarget
    }

    struct Entry: Sendable {
        var item: FrontierItem
        var state: State
    }

    /// The scope every discovered URL is classified with.
    public let scope: CrawlScope
    /// The limits in force.
    public let limits: FrontierLimits

    var entries: [Entry] = []
    var indexByKey: [String: Int] = [:]
    /// Queued entry indices by depth. A slot is stale (skipped) when its entry is no longer
    /// queued or was moved to a smaller depth.
    var buckets: [FIFOQueue<Int>] = []
    /// No bucket below this depth holds anything.
    var lowestDepth = 0
    var queuedCount = 0
    var inFlightCount = 0
    var doneCount = 0
    var failedCount = 0
    var fetchCount = 0
    var byteCount: Int64 = 0
    var isCancelled = false
    /// Set by ``halt(_:)``: no new fetch starts, and the crawl finishes with this reason.
    var haltReason: FinishReason?
    var finishReason: FinishReason?
    /// Entries queued by ``seedFirst(_:)``: handed out before any depth bucket.
    var priority = FIFOQueue<Int>()
    /// The crawler-trap rules and what they remember.
    var traps: TrapGuard

    /// Creates an empty frontier.
    /// - Parameters:
    ///   - scope: decides what discovered URLs are fetched.
    ///   - limits: page, byte and URL-length limits.
    public init(scope: CrawlScope, limits: FrontierLimits) {
        self.scope = scope
        self.limits = limits
        traps = TrapGuard(rules: limits.traps)
    }

    /// Queues start URLs as depth-0 pages.
    ///
    /// Start URLs are not checked against the scope (they define it) or the URL-length limit.
    /// A start URL already queued as a requisite becomes a page.
    /// - Parameter urls: the start URLs; fragments are ignored, duplicates are dropped.
    public mutating func seed(_ urls: [WebURL]) {
        for url in urls {
            let key = url.withoutFragment.string
            if let index = indexByKey[key] {
                upgrade(index, toPageAtDepth: 0)
            } else {
                enqueue(FrontierItem(url: url, depth: 0, isRequisite: false, referrer: nil), key: key)
            }
        }
    }

    /// The next thing the crawl loop should do.
    ///
    /// `.fetch` marks the item in flight; report it back with ``complete(_:bytes:)`` or
    /// ``fail(_:)``. `.wait` means ask again after one of those. `.finished` is final.
    public mutating func next() -> FrontierAction {
        if let finishReason { return .finished(finishReason) }
        if let haltReason { return stop(haltReason) }
        if isCancelled { return stop(.cancelled) }
        if queuedCount > 0 {
            if let maxPages = limits.maxPages, fetchCount >= maxPages { return stop(.pageLimit) }
            if let maxBytes = limits.maxBytes, byteCount >= maxBytes { return stop(.byteLimit) }
        }
        if let index = popQueued() {
            entries[index].state = .inFlight
            queuedCount -= 1
            inFlightCount += 1
            fetchCount += 1
            return .fetch(entries[index].item)
        }
        return stop(.exhausted)
    }

    /// Records a successful fetch.
    ///
    /// An item that is not in flight (already reported, or never handed out) is ignored.
    /// - Parameters:
    ///   - item: the item from `.fetch`.
    ///   - bytes: the bytes downloaded, counted toward ``FrontierLimits/maxBytes``.
    public mutating func complete(_ item: FrontierItem, bytes: Int64) {
        guard let index = inFlightIndex(of: item) else { return }
        entries[index].state = .done
        inFlightCount -= 1
        doneCount += 1
        byteCount += max(bytes, 0)
    }

    /// Records a failed fetch. It counts toward nothing but frees the in-flight slot; the URL
    /// is not retried.
    /// - Parameter item: the item from `.fetch`.
    public mutating func fail(_ item: FrontierItem) {
        guard let index = inFlightIndex(of: item) else { return }
        entries[index].state = .failed
        inFlightCount -= 1
        failedCount += 1
    }

    /// Stops handing out fetches. In-flight items must still be completed or failed; `next()`
    /// answers `.wait` until they are, then `.finished(.cancelled)`.
    public mutating func cancel() {
        isCancelled = true
    }

    /// Stops handing out fetches because the run must end early (its time budget ran out, or
    /// it was asked to stop): like ``cancel()``, but the crawl then finishes with `reason`, and
    /// what is still queued stays queued (``unfetched``), so the run can say what it did not
    /// fetch. The first reason given wins; a later ``cancel()`` still aborts.
    /// - Parameter reason: ``FinishReason/runTimeLimit`` or ``FinishReason/interrupted``.
    public mutating func halt(_ reason: FinishReason) {
        if haltReason == nil, finishReason == nil { haltReason = reason }
    }

    /// The reason given to ``halt(_:)``, if it was called.
    public var haltedBecause: FinishReason? { haltReason }

    /// Queues URLs ahead of everything else (a refresh revalidates first what the last run
    /// left stale). Each keeps its depth and kind; a URL already known is left as it is.
    /// - Parameter items: the items, in the order they should be fetched.
    public mutating func seedFirst(_ items: [FrontierItem]) {
        for item in items {
            let key = item.url.withoutFragment.string
            guard indexByKey[key] == nil else { continue }
            let index = entries.count
            entries.append(Entry(item: item, state: .queued))
            indexByKey[key] = index
            queuedCount += 1
            priority.append(index)
        }
    }

    /// How close the crawl came to each crawler-trap limit.
    public var trapPeaks: TrapPeaks { traps.peaks }

    /// The items still queued, in no particular order: what a crawl that ended early did not
    /// fetch.
    public var unfetched: [FrontierItem] {
        entries.compactMap { $0.state == .queued ? $0.item : nil }
    }

    /// The current counters.
    public var stats: FrontierStats {
        FrontierStats(
            queued: queuedCount, inFlight: inFlightCount, done: doneCount, failed: failedCount,
            bytes: byteCount, seen: entries.count, fetched: fetchCount)
    }

    /// `.wait` while anything is in flight, otherwise finishes for good with `reason`.
    private mutating func stop(_ reason: FinishReason) -> FrontierAction {
        if inFlightCount > 0 { return .wait }
        finishReason = reason
        return .finished(reason)
    }

    private func inFlightIndex(of item: FrontierItem) -> Int? {
        guard let index = indexByKey[item.url.withoutFragment.string], entries[index].state == .inFlight else {
            return nil
        }
        return index
    }
}
