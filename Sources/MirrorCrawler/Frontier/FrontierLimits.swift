/// Limits that end a crawl early.
public struct FrontierLimits: Sendable, Equatable {
    /// The most URLs fetched (pages and requisites together); nil for no limit. The frontier
    /// hands out exactly this many `.fetch` actions at most.
    public var maxPages: Int? = nil
    /// The number of bytes after which no new fetch starts; nil for no limit. Fetches already
    /// in flight finish, so the total may exceed it by what they bring.
    public var maxBytes: Int64? = nil
    /// The longest URL (normalised, without fragment, in UTF-8 bytes) the frontier queues;
    /// longer discovered URLs are refused. Guards against URL-growing loops (`a/a/a/…`).
    public var maxURLLength: Int = 2048
    /// The crawler-trap defences applied to page links (off unless given).
    public var traps: TrapRules = .off

    /// Creates limits; by default the crawl is unlimited and URLs may be 2,048 bytes long.
    /// - Parameters:
    ///   - maxPages: the most URLs fetched, or nil.
    ///   - maxBytes: the byte budget, or nil.
    ///   - maxURLLength: the longest URL queued, in bytes.
    ///   - traps: the crawler-trap defences.
    public init(maxPages: Int? = nil, maxBytes: Int64? = nil, maxURLLength: Int = 2048, traps: TrapRules = .off) {
        self.maxPages = maxPages
        self.maxBytes = maxBytes
        self.maxURLLength = maxURLLength
        self.traps = traps
    }
}
