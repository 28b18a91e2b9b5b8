import MirrorCore

/// Why a sitemap could not be read.
public enum SitemapError: DiagnosableError, Equatable {
    /// The XML is not well formed, or the root is neither `urlset` nor `sitemapindex`.
    case malformed(reason: String)
    /// The document declares a DOCTYPE; entities and DTDs are refused outright.
    case doctypeRefused
    /// The (decompressed) sitemap exceeds the size limit (50 MiB).
    case tooLarge(limit: Int)
    /// The gzip stream is damaged or truncated.
    case corruptGzip(reason: String)

    public var category: ErrorCategory {
        switch self {
        case .tooLarge: .limit
        case .malformed, .doctypeRefused, .corruptGzip: .http
        }
    }

    public var summary: String {
        switch self {
        case .malformed(let reason): "the sitemap is not usable: \(reason)"
        case .doctypeRefused: "the sitemap declares a DOCTYPE, which is refused (no DTDs, no entities)"
        case .tooLarge(let limit): "the sitemap is larger than \(limit) bytes uncompressed"
        case .corruptGzip(let reason): "the gzip-compressed sitemap is damaged: \(reason)"
        }
    }

    public var hint: String { "the site's sitemap needs fixing; the crawl goes on from the start URLs" }
}
