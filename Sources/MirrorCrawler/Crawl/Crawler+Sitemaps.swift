import Foundation
import MirrorCore
import MirrorDocument
import MirrorHTTP

/// How a crawl uses sitemaps (`--sitemaps`, `--sitemap-lastmod`).
public struct SitemapOptions: Sendable, Equatable {
    /// Seed the crawl from robots.txt's `Sitemap:` lines and `/sitemap.xml` of each start origin.
    public var enabled = false
    /// On a refresh, a URL whose sitemap `lastmod` is not later than when the current snapshot
    /// fetched it is taken from the snapshot without a request (not even a conditional one).
    /// Off by default: a `lastmod` is only as good as the site that writes it.
    public var trustLastModified = false
    /// Sitemap files fetched at most (an index and the sitemaps it lists, together).
    public var maximumFiles = 1_000

    public init(enabled: Bool = false, trustLastModified: Bool = false) {
        self.enabled = enabled
        self.trustLastModified = trustLastModified
    }
}

/// The `lastmod` of each URL the sitemaps listed, for ``SitemapOptions/trustLastModified``.
final class SitemapDates: @unchecked Sendable {
    private let lock = NSLock()
    private var dates: [String: Date] = [:]

    func record(_ date: Date, for url: WebURL) {
        lock.lock()
        dates[url.string] = max(date, dates[url.string] ?? .distantPast)
        lock.unlock()
    }

    /// Whether the sitemap says `url` has not changed since `fetched`.
    func unchanged(_ url: WebURL, since fetched: Date?) -> Bool {
        guard let fetched else { return false }
        lock.lock()
        defer { lock.unlock() }
        guard let date = dates[url.string] else { return false }
        return date <= fetched
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return dates.count
    }
}

extension Crawler {
    /// Fetches the sitemaps of every start origin and offers their URLs to the frontier, as
    /// links of depth 1 that the scope rules judge like any other (a page the scope excludes is
    /// not fetched because a sitemap lists it).
    ///
    /// Sources: the `Sitemap:` lines of the origin's robots.txt (when it was read), then
    /// `/sitemap.xml`. A sitemap index is followed one level down (the protocol allows no
    /// deeper nesting; a second level is still read, a third not). Sitemap files must be on a
    /// start URL's origin, and robots.txt applies to them. Each file gives at most 50,000 URLs
    /// and 50 MiB (gzip included).
    ///
    /// - Returns: warnings for the report (a listed sitemap that failed, entries left out).
    func seedFromSitemaps(state: CrawlState) async -> [String] {
        let origins = Set(job.startURLs.map(\.origin))
        var queue: [(url: WebURL, level: Int, listed: Bool)] = []
        var seen = Set<String>()
        let robots = await state.robots
        for url in job.startURLs {
            guard let root = url.resolve("/") else { continue }
            for line in robots[url.origin]?.sitemaps ?? [] {
                if let listed = root.resolve(line)?.withoutFragment, origins.contains(listed.origin), seen.insert(listed.string).inserted {
                    queue.append((listed, 0, true))
                }
            }
            if let fallback = root.resolve("/sitemap.xml"), seen.insert(fallback.string).inserted {
                queue.append((fallback, 0, false))
            }
        }
        var warnings: [String] = []
        var files = 0
        var offered = 0
        var index = 0
        while index < queue.count, files < job.sitemaps.maximumFiles {
            let (url, level, listed) = queue[index]
            index += 1
            if job.respectRobots, !(await state.robotsAllow(url, userAgent: job.userAgent)) { continue }
            files += 1
            let sitemap: Sitemap
            do {
                sitemap = try await fetchSitemap(url)
            } catch let error as SitemapFetchFailure {
                // A missing /sitemap.xml is normal; a sitemap robots.txt or an index names is not.
                if listed || level > 0 { warnings.append("sitemap \(url.string): \(error.reason)") }
                logger.debug("sitemap \(url.string): \(error.reason)")
                continue
            } catch {
                continue
            }
            if sitemap.skippedEntries > 0 {
                warnings.append("sitemap \(url.string) lists more than \(Sitemap.maximumEntries) entries: \(sitemap.skippedEntries) left out")
            }
            switch sitemap.kind {
            case .index:
                for entry in sitemap.entries {
                    guard let child = url.resolve(entry.location)?.withoutFragment, origins.contains(child.origin) else { continue }
                    if level < 2, seen.insert(child.string).inserted { queue.append((child, level + 1, true)) }
                }
            case .urlSet:
                var links: [DiscoveredLink] = []
                for entry in sitemap.entries {
                    guard let page = url.resolve(entry.location)?.withoutFragment else { continue }
                    links.append(DiscoveredLink(url: page, isRequisite: false))
                    if let date = entry.lastModified { sitemapDates.record(date, for: page) }
                }
                offered += links.count
                await state.offerFromSitemap(links, sitemap: url)
            }
        }
        logger.debug("\(job.name): \(files) sitemap file(s), \(offered) URL(s) offered, \(sitemapDates.count) with lastmod")
        return warnings
    }

    /// Fetches and parses one sitemap file.
    private func fetchSitemap(_ url: WebURL) async throws -> Sitemap {
        var request = HTTPRequest(url: url.string, headers: job.headers, maxBodyBytes: Int64(Sitemap.maximumBytes),
                                  maxDecompressionRatio: job.limits.maxDecompressionRatio, userAgent: job.userAgent)
        request.timeouts = job.limits.timeouts
        request.parsedURL = url
        let result: FetchResult
        do {
            result = try await client.fetch(request, security: security, redirects: job.redirects, retries: job.retries,
                                            cookies: job.cookies)
        } catch {
            throw SitemapFetchFailure(reason: error.summary)
        }
        guard (200...299).contains(result.response.status) else {
            throw SitemapFetchFailure(reason: "HTTP \(result.response.status)")
        }
        do {
            return try Sitemap.parse(result.response.body)
        } catch {
            throw SitemapFetchFailure(reason: error.summary)
        }
    }
}

/// Why one sitemap file gave nothing (kept apart from crawl failures: a sitemap is not a page).
struct SitemapFetchFailure: Error {
    let reason: String
}

extension CrawlState {
    /// Offers a sitemap's URLs to the frontier as the links of a depth-0 document (so they are
    /// depth 1, within the scope rules), with the sitemap as their referrer.
    func offerFromSitemap(_ links: [DiscoveredLink], sitemap: WebURL) {
        offer(links, from: FrontierItem(url: sitemap, depth: 0, isRequisite: false, referrer: nil))
    }
}
