import MirrorCore

/// One URL the frontier hands out to fetch.
public struct FrontierItem: Sendable, Equatable {
    /// The normalised URL to fetch, without fragment.
    public let url: WebURL
    /// Link depth from a start URL: start URLs are 0, a page's links are one deeper, and its
    /// requisites share its depth.
    public let depth: Int
    /// True when the URL is fetched as a page requisite: parse it only if it is CSS and follow
    /// no `<a>` links from it. False for a page.
    public let isRequisite: Bool
    /// The URL of the document that first referenced it; nil for a start URL.
    public let referrer: WebURL?
    /// Pages of the same shape in a row that led to this one (``TrapGuard``); 0 for a start URL.
    public internal(set) var chain: UInt16
    /// Steps in a row in which a value of the URL grew (``TrapGuard``); 0 for a start URL.
    public internal(set) var growth: UInt16
    /// The URL's number in the frontier's ``URLRegistry``, set on the items the frontier hands
    /// out (nil on items made elsewhere): the crawl's state finds the URL by it without hashing
    /// its text again. Not part of equality.
    var id: UInt32?

    /// Creates an item. The frontier makes its own; this is for tests and callers' bookkeeping.
    /// - Parameters:
    ///   - url: the URL; its fragment is dropped.
    ///   - depth: the link depth.
    ///   - isRequisite: whether it is fetched as a requisite.
    ///   - referrer: the referencing document's URL.
    ///   - chain: the trap guard's shape-chain counter.
    ///   - growth: the trap guard's growth counter.
    public init(url: WebURL, depth: Int, isRequisite: Bool, referrer: WebURL?, chain: Int = 0, growth: Int = 0) {
        self.url = url.withoutFragment
        self.depth = depth
        self.isRequisite = isRequisite
        self.referrer = referrer
        self.chain = UInt16(clamping: chain)
        self.growth = UInt16(clamping: growth)
    }

    public static func == (a: FrontierItem, b: FrontierItem) -> Bool {
        a.url == b.url && a.depth == b.depth && a.isRequisite == b.isRequisite && a.referrer == b.referrer
            && a.chain == b.chain && a.growth == b.growth
    }
}
