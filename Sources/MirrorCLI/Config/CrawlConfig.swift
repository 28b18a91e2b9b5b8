import MirrorCrawler

/// How a site is crawled beyond its scope: sitemaps (`sites[].crawl`).
public struct CrawlConfig: Sendable, Equatable {
    /// Seed the crawl from robots.txt `Sitemap:` lines and `/sitemap.xml`.
    public var sitemaps = false
    /// On a refresh, skip the request for a URL whose sitemap `lastmod` is not newer than the copy.
    public var sitemapLastmod = false

    public init() {}

    /// The crawler's sitemap options.
    var sitemapOptions: SitemapOptions {
        SitemapOptions(enabled: sitemaps || sitemapLastmod, trustLastModified: sitemapLastmod)
    }
}

extension CrawlConfig {
    static let keys = ["sitemaps", "sitemapLastmod"]

    /// Decodes `sites[].crawl`.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        sitemaps = try object.optional("sitemaps")?.bool() ?? false
        sitemapLastmod = try object.optional("sitemapLastmod")?.bool() ?? false
    }
}
