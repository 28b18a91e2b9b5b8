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
    /// The normalised text of the URL of the document that first referenced it; nil for a
    /// start URL. Kept as text: the crawl sends it as `Referer` and names it in the report,
    /// and parsing it for every item the frontier hands out was a tenth of a refresh's work.
    public let referrerText: String?
    /// ``referrerText`` parsed.
    public var referrer: WebURL? { referrerText.flatMap(WebURL.init) }
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
        self.init(url: url, depth: depth, isRequisite: isRequisite, referrerText: referrer?.withoutFragment.string,
                  chain: chain, growth: growth)
    }

    /// An item whose referrer is given as normalised text (the frontier's registry holds it so).
    init(url: WebURL, depth: Int, isRequisite: Bool, referrerText: String?, chain: Int, growth: Int) {
        self.url = url.withoutFragment
        self.depth = depth
        self.isRequisite = isRequisite
        self.referrerText = referrerText
        self.chain = UInt16(clamping: chain)
        self.growth = UInt16(clamping: growth)
    }

    public static func == (a: FrontierItem, b: FrontierItem) -> Bool {
        a.url == b.url && a.depth == b.depth && a.isRequisite == b.isRequisite && a.referrerText == b.referrerText
            && a.chain == b.chain && a.growth == b.growth
    }
}
