import MirrorHTTP
import MirrorCrawler

/// Caps that keep one site's crawl bounded. Sizes are bytes, durations seconds.
public struct LimitsConfig: Sendable, Equatable {
    /// Stop after this many pages; `nil` means no limit.
    public var maxPages: Int?
    /// Stop after this many bytes in total; `nil` means no limit.
    public var maxBytes: Int64?
    /// Largest single response body. Default 256 MiB.
    public var maxFileSize: Int64 = 256 << 20
    /// Redirects followed per request (0…100). Default 10.
    public var maxRedirects = 10
    /// Longest URL accepted, in bytes (256…1 MiB). Default 8192.
    public var maxURLLength = 8192
    /// A body may decompress to at most this many times its wire size (≥ 1). Default 200.
    public var maxDecompressionRatio = 200.0
    /// Biggest HTML document handed to the parser. Default 32 MiB.
    public var maxHTMLBytes: Int64 = 32 << 20
    /// Concurrent connections per host (1…64). Default 32 (``MirrorCrawler/CrawlLimits/perHostConnections``).
    public var perHostConnections = CrawlLimits().perHostConnections
    /// The HTTP version over TLS: `auto`, `1.1` or `2` (``MirrorHTTP/HTTPVersionPreference``).
    public var httpVersion = HTTPVersionPreference.automatic
    /// Time to establish a connection. Default 15 s.
    public var connectTimeout = 15.0
    /// Longest pause without data. Default 30 s.
    public var idleTimeout = 30.0
    /// Longest time for one request. Default 10 min.
    public var totalTimeout = 600.0
    /// Retries of 5xx, 429 and timeouts (0…20). Default 2.
    public var retries = 2
    /// The run's time budget; `nil` (the default) for none. When it runs out, the run publishes
    /// what it has and exits 10.
    public var runTime: Double?
    /// The response headers must be complete this long after the request. Default 30 s.
    public var headerTimeout = 30.0
    /// A body slower than this many bytes a second for ``idleTimeout`` is cut off. Default 512.
    public var minRate: Int64 = 512
    /// Publish what an interrupted first mirror fetched, marked partial. Default `true`.
    public var publishPartial = true

    /// The defaults listed on each property.
    public init() {}
}
