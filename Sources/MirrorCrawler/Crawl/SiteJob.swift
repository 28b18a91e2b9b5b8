import Foundation
import MirrorCore
import MirrorHTTP

/// Everything one site's crawl needs except the TLS identity and trust (a ``SecurityPolicy``),
/// which the caller loads. Built from command-line flags or from a config.json site.
public struct SiteJob: Sendable {
    /// The folder name under the output root.
    public var name: String
    public var startURLs: [WebURL]
    /// The output root; the site lives in `<outputRoot>/<name>`.
    public var outputRoot: String
    public var scope: ScopeConfiguration
    public var limits: CrawlLimits
    /// Concurrent transfers.
    public var jobs: Int
    /// Honour robots.txt (RFC 9309) on the primary origins.
    public var respectRobots: Bool
    public var userAgent: String
    /// Extra request headers, sent with every request.
    public var headers: [(name: String, value: String)]
    public var redirects: RedirectPolicy
    public var retries: RetryPolicy
    /// Cookies sent with every request and updated from responses (seed it from a Netscape
    /// cookie file with ``CookieJar/load(netscapeFile:)``).
    public var cookies: CookieJar
    /// Revalidate against the current snapshot (If-None-Match / If-Modified-Since from its
    /// manifest, never file times) and link unchanged files instead of downloading them.
    public var incremental: Bool
    /// Warnings to repeat in the run's report (e.g. the client certificate expires soon).
    public var warnings: [String] = []
    /// Render mode: pages loaded in a headless browser whose every request the crawl answers
    /// (nil: no page is rendered).
    public var render: RenderSettings? = nil
    /// The crawler-trap defences (on by default; ``TrapRules/off`` switches them all off).
    public var traps: TrapRules = .defaults
    /// When a first mirror (no current snapshot) is interrupted, publish what it fetched as a
    /// partial snapshot. A refresh that stops early always publishes, carrying the previous
    /// copy of what it did not reach over (``ManifestEntry/stale``).
    public var publishPartial = true
    /// Seed the crawl from sitemaps, and trust their `lastmod` on a refresh.
    public var sitemaps = SitemapOptions()
    /// Pacing, byte rate and back-off (the HTTP client's ``MirrorHTTP/HostThrottle``).
    public var politeness = Politeness()
    /// Record every exchange of the crawl (robots.txt included) for an archive: the recorder
    /// gets each request and response as they went over the wire, from the same fetches.
    public var capture: CaptureOptions?

    /// Concurrent transfers unless configured. HTTP/2 carries them as streams over a few
    /// connections (at most ``CrawlLimits/perHostConnections`` per host), so a higher count costs
    /// the server little; over HTTP/1.1 the surplus waits for a free connection. Measured on a
    /// 2,000-page site 20 ms away: 16 transfers 10.9 s, 64 about 2.2–2.6 s, 256 about 1.3 s
    /// (BENCHMARKS.md). Each transfer in flight costs about 36 KiB; 256 keep the whole run
    /// near 54 MiB. It is a ceiling: each connection engine keeps only as many in flight as the
    /// link needs (`TransferWindow` in MirrorHTTP; 16 on a fast link).
    public static let defaultJobs = 256
    /// The accepted range of `jobs`.
    public static let jobsRange = 1...1024

    public init(name: String, startURLs: [WebURL], outputRoot: String) {
        self.name = name
        self.startURLs = startURLs
        self.outputRoot = outputRoot
        scope = ScopeConfiguration()
        scope.maxDepth = TrapRules.defaultDepth
        limits = CrawlLimits()
        jobs = SiteJob.defaultJobs
        respectRobots = true
        userAgent = HTTPRequest.defaultUserAgent
        headers = []
        redirects = RedirectPolicy()
        retries = RetryPolicy()
        cookies = CookieJar()
        incremental = true
    }

    /// The default site name for a URL: its host, plus `_PORT` for a non-default port. An IPv6
    /// literal loses its brackets and its colons become `_` (`[::1]:8443` gives `__1_8443`).
    ///
    /// Bytes, not Foundation's `replacingOccurrences` and `trimmingCharacters`: their first call
    /// in a process scans the binary's protocol conformances, 0.6 ms of every `mirror` without
    /// `--name` on the way to its first request (issue #27).
    public static func defaultName(for url: WebURL) -> String {
        var bytes = url.host.utf8.map { $0 == UInt8(ascii: ":") ? UInt8(ascii: "_") : $0 }
        while bytes.last == UInt8(ascii: "]") || bytes.last == UInt8(ascii: "[") { bytes.removeLast() }
        let start = bytes.firstIndex { $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") } ?? bytes.endIndex
        var name = String(decoding: bytes[start...], as: UTF8.self)
        if let port = url.port { name += "_" + String(port) }
        return name
    }

    public var siteDirectory: String { outputRoot + "/" + name }
}

/// The bounds of one crawl. Every one is configurable (CLI and config.json).
public struct CrawlLimits: Sendable, Equatable {
    /// URLs fetched at most (pages and requisites).
    public var maxPages: Int?
    /// Body bytes fetched at most, in all.
    public var maxBytes: Int64?
    /// Largest single body.
    public var maxFileSize: Int64 = 256 * 1024 * 1024
    /// Largest HTML document handed to the parser; larger ones are kept as they are, unparsed.
    public var maxHTMLBytes: Int64 = 32 * 1024 * 1024
    /// Longest URL followed.
    public var maxURLLength: Int = 8192
    public var maxDecompressionRatio: Double = 200
    public var timeouts = HTTPRequest.Timeouts()
    /// Connections per host. Over HTTP/2 a few carry every stream; over HTTP/1.1 each carries one
    /// request at a time, so this is the concurrency there. Measured against a 2,000-page
    /// HTTP/1.1-only origin 20 ms away: 16 connections 7.3 s (wget2 with 16 threads: 7.6 s),
    /// 32 connections 3.7 s, 64 connections 2.2 s; over HTTP/2 and on loopback the three are
    /// alike (BENCHMARKS.md). 32 halves the time where it matters and stays a modest load for
    /// the server (`--per-host` lowers it).
    public var perHostConnections: Int = 32
    /// What requests over TLS ask for: HTTP/2, moving to HTTP/1.1 on a near link (``MirrorHTTP/HTTPVersionPreference``).
    public var httpVersion: HTTPVersionPreference = .automatic
    /// The run's time budget: when it runs out, no new transfer starts, those in flight get
    /// ``stopGrace``, and the run rewrites and publishes what it has (exit 10); nil for none.
    public var runTime: TimeInterval?

    /// How long transfers in flight may go on once a run has been told to stop: a tenth of the
    /// budget, between half a second and five seconds (five seconds after a signal).
    public var stopGrace: TimeInterval {
        guard let runTime else { return 5 }
        return min(5, max(0.5, runTime / 10))
    }

    public init() {}
}
