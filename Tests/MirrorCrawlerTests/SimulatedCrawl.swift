import MirrorCore
import Testing
@testable import MirrorCrawler
import MirrorTestSupport

/// Drives a ``Frontier`` the way a crawl loop would, against a site held in memory.
struct SimulatedCrawl {
    /// The links each URL (normalised, without fragment) contains.
    var site: [String: [DiscoveredLink]] = [:]
    /// How many fetches may be in flight at once.
    var concurrency = 1
    /// Bytes reported for every successful fetch.
    var bytesPerFetch: Int64 = 100
    /// When set, in-flight fetches finish in a random order; otherwise first-in, first-out.
    var random: SplitMix64?
    /// URLs whose fetch fails (their links are then never seen).
    var failing: Set<String> = []
    /// Links of URLs that ``site`` does not list, made on demand (an endless trap).
    var generate: (@Sendable (WebURL) -> [DiscoveredLink])?
    /// The most fetches before the run gives up (a trap the frontier does not bound).
    var maxFetches = 10_000_000

    /// Every `.fetch` handed out, in order.
    private(set) var fetched: [FrontierItem] = []
    /// Every discovery result, in order.
    private(set) var results: [DiscoveryResult] = []

    /// Runs the crawl to its end and returns why it ended, or nil if it did not end properly.
    mutating func run(_ frontier: inout Frontier, sourceLocation: SourceLocation = #_sourceLocation) -> FinishReason? {
        var inFlight: [FrontierItem] = []
        for _ in 0..<10_000_000 {
            if inFlight.count < concurrency {
                switch frontier.next() {
                case .fetch(let item):
                    fetched.append(item)
                    inFlight.append(item)
                    if fetched.count >= maxFetches {
                        frontier.cancel()
                    }
                    continue
                case .finished(let reason):
                    #expect(inFlight.isEmpty, "finished with fetches in flight", sourceLocation: sourceLocation)
                    return reason
                case .wait:
                    guard !inFlight.isEmpty else {
                        Issue.record("wait with nothing in flight", sourceLocation: sourceLocation)
                        return nil
                    }
                }
            }
            var position = 0
            if var generator = random {
                position = Int.random(in: 0..<inFlight.count, using: &generator)
                random = generator
            }
            let item = inFlight.remove(at: position)
            if failing.contains(item.url.string) {
                frontier.fail(item)
            } else {
                results += frontier.discover(site[item.url.string] ?? generate?(item.url) ?? [], from: item)
                frontier.complete(item, bytes: bytesPerFetch)
            }
        }
        Issue.record("the crawl did not end", sourceLocation: sourceLocation)
        return nil
    }
}

/// Builds a frontier for `https://example.com/` (or `start`) seeded with its start URL.
func makeFrontier(
    start: String = "https://example.com/", configuration: ScopeConfiguration = ScopeConfiguration(),
    limits: FrontierLimits = FrontierLimits(), seed: Bool = true
) throws -> Frontier {
    let startURL = try webURL(start)
    var frontier = Frontier(scope: try CrawlScope(startURLs: [startURL], configuration: configuration), limits: limits)
    if seed { frontier.seed([startURL]) }
    return frontier
}

/// Links on `https://example.com`: a path (or absolute URL) and whether it is a requisite.
func links(_ entries: (String, Bool)...) throws -> [DiscoveredLink] {
    try entries.map { text, isRequisite in
        let absolute = text.hasPrefix("/") ? "https://example.com" + text : text
        return DiscoveredLink(url: try webURL(absolute), isRequisite: isRequisite)
    }
}

extension Array where Element == FrontierItem {
    /// The fetched paths, for compact expectations.
    var paths: [String] { map(\.url.requestTarget) }
}
