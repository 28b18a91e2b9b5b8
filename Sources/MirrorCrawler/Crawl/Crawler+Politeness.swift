import Foundation
import MirrorCore
import MirrorHTTP

extension Crawler {
    /// The longest robots.txt `Crawl-delay` honoured; a longer one is shortened to it (with a
    /// warning), since a day between requests would never finish a mirror.
    static let maximumCrawlDelay: TimeInterval = 60

    /// Gives the HTTP client's throttle each start origin's robots.txt `Crawl-delay` for our
    /// user agent.
    ///
    /// - Returns: warnings for the report (a delay that was shortened).
    func applyCrawlDelays(state: CrawlState) async -> [String] {
        guard job.respectRobots, let throttle = client.throttle else { return [] }
        let robots = await state.robots
        var warnings: [String] = []
        var done = Set<String>()
        for url in job.startURLs where done.insert(url.origin).inserted {
            guard let delay = robots[url.origin]?.crawlDelay(userAgent: job.userAgent), delay > 0 else { continue }
            let used = min(delay, Self.maximumCrawlDelay)
            if used < delay {
                warnings.append("\(url.origin)/robots.txt asks for a Crawl-delay of \(Int(delay)) s; \(Int(used)) s were used")
            }
            logger.debug("\(url.origin): Crawl-delay \(used) s")
            await throttle.setCrawlDelay(used, host: url.host, port: url.effectivePort)
        }
        return warnings
    }

    /// One note per host that shed load during the run (the URLs were tried again after backing off).
    func politenessNotes() async -> [String] {
        guard let throttle = client.throttle else { return [] }
        return await throttle.sheddingResponses.sorted { $0.key < $1.key }.map { host, count in
            "\(host) answered 429/503 \(count) time(s): it was given fewer requests at a time and the URLs were tried again after its Retry-After or a back-off"
        }
    }
}
