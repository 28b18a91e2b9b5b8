import MirrorCrawler

import MirrorHTTP

/// How a site is crawled beyond its scope: sitemaps and politeness (`sites[].crawl`).
public struct CrawlConfig: Sendable, Equatable {
    /// Seed the crawl from robots.txt `Sitemap:` lines and `/sitemap.xml`.
    public var sitemaps = false
    /// On a refresh, skip the request for a URL whose sitemap `lastmod` is not newer than the copy.
    public var sitemapLastmod = false
    /// Seconds between requests to one host; vary them 0.5–1.5×; requests per second per host;
    /// body bytes per second in all.
    public var wait: Double = 0
    public var randomWait = false
    public var hostRate: Double?
    public var limitRate: Int64?

    public init() {}

    /// The throttle's configuration, with the site's per-host concurrency as its ceiling.
    func politeness(maximumConcurrency: Int) -> Politeness {
        var politeness = Politeness()
        politeness.wait = wait
        politeness.randomWait = randomWait
        politeness.hostRequestsPerSecond = hostRate
        politeness.bytesPerSecond = limitRate
        politeness.maximumConcurrency = maximumConcurrency
        return politeness
    }

    /// The crawler's sitemap options.
    var sitemapOptions: SitemapOptions {
        SitemapOptions(enabled: sitemaps || sitemapLastmod, trustLastModified: sitemapLastmod)
    }
}

extension CrawlConfig {
    static let keys = ["sitemaps", "sitemapLastmod", "wait", "randomWait", "hostRate", "limitRate"]

    /// Decodes `sites[].crawl`.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        sitemaps = try object.optional("sitemaps")?.bool() ?? false
        sitemapLastmod = try object.optional("sitemapLastmod")?.bool() ?? false
        wait = try object.optional("wait")?.duration() ?? 0
        randomWait = try object.optional("randomWait")?.bool() ?? false
        hostRate = try object.optional("hostRate")?.double(atLeast: 0.001)
        limitRate = try object.optional("limitRate")?.size(atLeast: 1)
    }
}
