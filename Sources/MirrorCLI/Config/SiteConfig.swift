import MirrorCore

/// One site to mirror: where to start, who we are, whom we trust, and what to fetch.
public struct SiteConfig: Sendable, Equatable {
    /// The site's folder under the output root: `[A-Za-z0-9._-]{1,64}`, unique, not `.` or `..`.
    public var name: String
    /// The start URLs (at least one), normalised.
    public var start: [WebURL]
    /// The client certificate; `nil` means none is sent.
    public var identity: IdentityConfig?
    /// The server-trust table.
    public var trust: TrustConfig
    /// What to follow.
    public var scope: ScopeConfig
    /// Crawl caps.
    public var limits: LimitsConfig
    /// Crawler-trap defences.
    public var traps: TrapsConfig
    /// Request details.
    public var http: HTTPConfig
    /// Refresh schedule and retention.
    public var refresh: RefreshConfig
    /// Serving options.
    public var serve: SiteServeConfig
    /// Render mode (nil: off).
    public var render: RenderConfig? = nil
    /// The proxy; nil: direct, with the environment's proxy variables ignored.
    public var proxy: ProxyConfig? = nil
    /// Sitemaps and politeness.
    public var crawl = CrawlConfig()
    /// Archive output (WARC files beside the mirror); nil: none.
    public var archive: ArchiveConfig? = nil

    /// Creates a site with defaults for everything but its name and start URLs.
    public init(name: String, start: [WebURL], identity: IdentityConfig? = nil, trust: TrustConfig = TrustConfig(),
                scope: ScopeConfig = ScopeConfig(), limits: LimitsConfig = LimitsConfig(), traps: TrapsConfig = TrapsConfig(),
                http: HTTPConfig = HTTPConfig(),
                refresh: RefreshConfig = RefreshConfig(), serve: SiteServeConfig = SiteServeConfig()) {
        self.name = name
        self.start = start
        self.identity = identity
        self.trust = trust
        self.scope = scope
        self.limits = limits
        self.traps = traps
        self.http = http
        self.refresh = refresh
        self.serve = serve
    }

    /// The hosts that may receive the client certificate: each start URL's `host:port`, then
    /// the identity's extra hosts. Empty when there is no identity.
    public var identityHosts: [String] {
        guard let identity else { return [] }
        var hosts: [String] = []
        for url in start {
            let origin = "\(url.host):\(url.effectivePort)"
            if !hosts.contains(origin) { hosts.append(origin) }
        }
        return hosts + identity.hosts.filter { !hosts.contains($0) }
    }
}
