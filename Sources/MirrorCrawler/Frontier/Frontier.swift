import MirrorCore
import MirrorStore

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
/// URLs are numbered in a ``URLRegistry`` (by 64-bit fingerprint, texts on disk for a crawl),
/// and the frontier keeps 16 bytes per URL it knows (``Node``): memory does not grow with the
/// length of URLs, and queued URLs cost no heap object each (issue #27).
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
    enum State: UInt8, Sendable, Equatable {
        /// Numbered for the crawl's own records (a URL carried over from the previous snapshot,
        /// the referrer of sitemap links), never offered to the frontier.
        case unknown
        case queued, inFlight, done, failed
        /// The final URL of a redirect: known, never fetched on its own.
        case redirectTarget
    }

    /// What the frontier knows of one URL, by its id in ``registry``: 12 bytes (16 before its
    /// state, kind and depth shared a word; issue #27).
    struct Node: Sendable {
        /// The depth (the low 24 bits), the state (the next 7) and whether it is a requisite (the top bit).
        private var word: UInt32
        var chain: UInt16
        var growth: UInt16
        /// The referring document's id + 1; 0 for none.
        var referrer: UInt32

        /// The deepest depth a node holds; deeper ones are kept as this one.
        static let maximumDepth: Int32 = 0xFF_FFFF

        init(state: State, isRequisite: Bool, chain: UInt16, growth: UInt16, depth: Int32, referrer: UInt32) {
            word = 0
            self.chain = chain
            self.growth = growth
            self.referrer = referrer
            self.state = state
            self.isRequisite = isRequisite
            self.depth = depth
        }

        var state: State {
            get { State(rawValue: UInt8(truncatingIfNeeded: word >> 24) & 0x7F) ?? .unknown }
            set { word = word & 0x80FF_FFFF | UInt32(newValue.rawValue & 0x7F) << 24 }
        }

        var isRequisite: Bool {
            get { word & 0x8000_0000 != 0 }
            set { word = newValue ? word | 0x8000_0000 : word & 0x7FFF_FFFF }
        }

        var depth: Int32 {
            get { Int32(word & 0xFF_FFFF) }
            set { word = word & 0xFF00_0000 | UInt32(min(max(newValue, 0), Self.maximumDepth)) }
        }
    }

    /// The scope every discovered URL is classified with.
    public let scope: CrawlScope
    /// The limits in force.
    public let limits: FrontierLimits

    /// Every URL known, numbered (the crawl's state keeps its own records by these numbers).
    var registry: URLRegistry
    /// By id: one per URL of ``registry``.
    var nodes = ChunkedArray<Node>()
    /// Queued ids by depth. A slot is stale (skipped) when its entry is no longer queued or
    /// was moved to a smaller depth.
    var buckets: [FIFOQueue<UInt32>] = []
    /// No bucket below this depth holds anything.
    var lowestDepth = 0
    var queuedCount = 0
    var inFlightCount = 0
    var doneCount = 0
    var failedCount = 0
    var fetchCount = 0
    /// URLs offered to the frontier (every state but ``State/unknown``).
    var seenCount = 0
    var byteCount: Int64 = 0
    var isCancelled = false
    /// Set by ``halt(_:)``: no new fetch starts, and the crawl finishes with this reason.
    var haltReason: FinishReason?
    var finishReason: FinishReason?
    /// Ids queued by ``seedFirst(_:)``: handed out before any depth bucket.
    var priority = FIFOQueue<UInt32>()
    /// The crawler-trap rules and what they remember.
    var traps: TrapGuard

    /// Creates an empty frontier.
    /// - Parameters:
    ///   - scope: decides what discovered URLs are fetched.
    ///   - limits: page, byte and URL-length limits.
    ///   - texts: where the URLs' texts go (a file of the staging snapshot for a crawl; memory
    ///     by default).
    public init(scope: CrawlScope, limits: FrontierLimits, texts: SpillFile = .inMemory()) {
        self.scope = scope
        self.limits = limits
        registry = URLRegistry(texts: texts)
        traps = TrapGuard(rules: limits.traps)
    }

    /// Queues start URLs as depth-0 pages.
    ///
    /// Start URLs are not checked against the scope (they define it) or the URL-length limit.
    /// A start URL already queued as a requisite becomes a page.
    /// - Parameter urls: the start URLs; fragments are ignored, duplicates are dropped.
    public mutating func seed(_ urls: [WebURL]) {
        for url in urls {
            let key = url.withoutFragment
            let (id, _) = register(key)
            if nodes[Int(id)].state == .unknown {
                enqueue(id, depth: 0, isRequisite: false, referrer: nil)
            } else {
                upgrade(id, toPageAtDepth: 0)
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
        while let id = popQueued() {
            queuedCount -= 1
            guard let item = item(id) else {
                // Its text could not be read back from the spill (whose owner ends the run).
                nodes[Int(id)].state = .failed
                failedCount += 1
                continue
            }
            nodes[Int(id)].state = .inFlight
            inFlightCount += 1
            fetchCount += 1
            return .fetch(item)
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
        guard let id = inFlightID(of: item) else { return }
        nodes[Int(id)].state = .done
        inFlightCount -= 1
        doneCount += 1
        byteCount += max(bytes, 0)
    }

    /// Records a failed fetch. It counts toward nothing but frees the in-flight slot; the URL
    /// is not retried.
    /// - Parameter item: the item from `.fetch`.
    public mutating func fail(_ item: FrontierItem) {
        guard let id = inFlightID(of: item) else { return }
        nodes[Int(id)].state = .failed
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
            let (id, _) = register(item.url)
            guard nodes[Int(id)].state == .unknown else { continue }
            nodes[Int(id)] = Node(state: .queued, isRequisite: item.isRequisite, chain: item.chain, growth: item.growth,
                                  depth: Int32(clamping: item.depth), referrer: item.referrerText.map { register(key: $0).id + 1 } ?? 0)
            seenCount += 1
            queuedCount += 1
            priority.append(id)
        }
    }

    /// How close the crawl came to each crawler-trap limit.
    public var trapPeaks: TrapPeaks { traps.peaks }

    /// The items still queued, in no particular order: what a crawl that ended early did not
    /// fetch.
    public var unfetched: [FrontierItem] {
        nodes.indices.compactMap { nodes[$0].state == .queued ? item(UInt32($0)) : nil }
    }

    /// The current counters.
    public var stats: FrontierStats {
        FrontierStats(
            queued: queuedCount, inFlight: inFlightCount, done: doneCount, failed: failedCount,
            bytes: byteCount, seen: seenCount, fetched: fetchCount)
    }

    /// The id of a URL, numbered when new (as ``State/unknown`` when the frontier has not seen
    /// it): the crawl's state numbers the URLs it records with the frontier's registry.
    /// - Parameter url: a URL without fragment.
    @discardableResult
    mutating func register(_ url: WebURL) -> (id: UInt32, isNew: Bool) {
        let result = registry.add(url)
        if result.isNew { nodes.append(Node(state: .unknown, isRequisite: false, chain: 0, growth: 0, depth: 0, referrer: 0)) }
        return result
    }

    /// ``register(_:)`` by a URL's normalised text.
    @discardableResult
    mutating func register(key text: String) -> (id: UInt32, isNew: Bool) {
        let result = registry.add(key: text)
        if result.isNew { nodes.append(Node(state: .unknown, isRequisite: false, chain: 0, growth: 0, depth: 0, referrer: 0)) }
        return result
    }

    /// The item of a known id, its URL and referrer read back from the registry.
    func item(_ id: UInt32) -> FrontierItem? {
        let node = nodes[Int(id)]
        guard let url = registry.url(of: id) else { return nil }
        // Text, not parsed: see ``FrontierItem/referrerText`` ("" is a spill that could not be read).
        var referrer: String?
        if node.referrer != 0 {
            let text = registry.text(of: node.referrer - 1)
            referrer = text.isEmpty ? nil : text
        }
        var item = FrontierItem(url: url, depth: Int(node.depth), isRequisite: node.isRequisite, referrerText: referrer,
                                chain: Int(node.chain), growth: Int(node.growth))
        item.id = id
        return item
    }

    /// The state of a URL the frontier knows (nil when it was never numbered).
    func state(of url: WebURL) -> State? {
        registry.id(of: url).map { nodes[Int($0)].state }
    }

    /// `.wait` while anything is in flight, otherwise finishes for good with `reason`.
    private mutating func stop(_ reason: FinishReason) -> FrontierAction {
        if inFlightCount > 0 { return .wait }
        finishReason = reason
        return .finished(reason)
    }

    private func inFlightID(of item: FrontierItem) -> UInt32? {
        guard let id = item.id ?? registry.id(of: item.url), nodes[Int(id)].state == .inFlight else { return nil }
        return id
    }
}
