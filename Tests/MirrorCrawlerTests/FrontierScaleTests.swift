import MirrorCore
import Testing
@testable import MirrorCrawler
import MirrorTestSupport

@Suite("Frontier at scale and under random schedules")
struct FrontierScaleTests {
    @Test("100,000 URLs are crawled once each, quickly")
    func hundredThousand() throws {
        let count = 100_000
        var urls: [WebURL] = []
        urls.reserveCapacity(count)
        for node in 0..<count { urls.append(try webURL("https://example.com/p/\(node)?q=\(node % 7)")) }
        var frontier = try makeFrontier(start: urls[0].string)
        var fetched = 0
        var seen = Set<String>()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            loop: while true {
                switch frontier.next() {
                case .fetch(let item):
                    fetched += 1
                    seen.insert(item.url.string)
                    // Page n links to 10n+1 … 10n+10 and, as a requisite, to a page already seen.
                    guard let node = Int(item.url.path.dropFirst(3)) else { break loop }
                    var batch: [DiscoveredLink] = []
                    for child in (10 * node + 1)...(10 * node + 10) where child < count {
                        batch.append(DiscoveredLink(url: urls[child], isRequisite: false))
                    }
                    batch.append(DiscoveredLink(url: urls[node / 2], isRequisite: true))
                    _ = frontier.discover(batch, from: item)
                    frontier.complete(item, bytes: 1)
                case .wait:
                    Issue.record("wait with nothing in flight")
                    break loop
                case .finished(let reason):
                    #expect(reason == .exhausted)
                    break loop
                }
            }
        }
        print("Frontier: \(count) URLs crawled in \(elapsed)")
        #expect(fetched == count)
        #expect(seen.count == count)
        #expect(frontier.stats.done == count)
        #expect(elapsed < .seconds(30))
    }

    @Test("a 20,000-page chain (one new depth per page) takes time linear in its length, with fetches in flight")
    func longChain() throws {
        // Ten times the pages may take at most 40 times as long: a cost per page that grew with
        // the depth would take about 100 times. A ratio of two runs, not a bound in seconds: the
        // suite also runs under the sanitizers on a shared VM (ThreadSanitizer once took 5.75 s
        // for the long chain, over the 5 s this test used to allow).
        let short = try crawlChain(of: 2_000)
        let long = try crawlChain(of: 20_000)
        print("Frontier: 2,000-page chain crawled in \(short), 20,000-page chain in \(long)")
        #expect(long < short * 40)
    }

    /// Crawls a chain of `count` pages, each linking to the next, two fetches in flight, and
    /// returns how long the frontier's work took.
    private func crawlChain(of count: Int) throws -> Duration {
        var crawl = SimulatedCrawl()
        for node in 0..<count - 1 {
            crawl.site["https://example.com/c\(node)"] = [
                DiscoveredLink(url: try webURL("https://example.com/c\(node + 1)"), isRequisite: false)
            ]
        }
        crawl.concurrency = 2
        var frontier = try makeFrontier(start: "https://example.com/c0")
        var reason: FinishReason?
        let elapsed = ContinuousClock().measure { reason = crawl.run(&frontier) }
        #expect(reason == .exhausted)
        #expect(crawl.fetched.count == count)
        #expect(crawl.fetched.last?.depth == count - 1)
        return elapsed
    }

    /// A random site: `nodes` pages on the primary origin linking to each other (written in
    /// several equivalent spellings, with fragments, as pages or requisites) and to URLs that
    /// are out of scope. Returns the site and the in-scope URLs reachable from node 0.
    static func randomSite(
        nodes: Int, using generator: inout SplitMix64
    ) throws -> (site: [String: [DiscoveredLink]], reachable: Set<String>, failing: Set<String>) {
        func spelling(_ node: Int, _ generator: inout SplitMix64) -> String {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: return "https://example.com/n\(node)"
            case 1: return "https://example.com/n\(node)#f\(Int.random(in: 0..<3, using: &generator))"
            case 2: return "https://example.com/x/../n\(node)"
            case 3: return "HTTPS://EXAMPLE.COM:443/./n\(node)"
            case 4: return "https://example.com/%6E\(node)"
            default: return "https://example.com/n\(node)?"
            }
        }
        var site: [String: [DiscoveredLink]] = [:]
        var edges: [[Int]] = Array(repeating: [], count: nodes)
        for node in 0..<nodes {
            var found: [DiscoveredLink] = []
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let target = Int.random(in: 0..<nodes, using: &generator)
                let isRequisite = Bool.random(using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0:
                    found.append(DiscoveredLink(url: try webURL("https://other.test/n\(target)"), isRequisite: isRequisite))
                case 1:
                    found.append(DiscoveredLink(url: try webURL("http://example.com/n\(target)"), isRequisite: isRequisite))
                default:
                    found.append(DiscoveredLink(url: try webURL(spelling(target, &generator)), isRequisite: isRequisite))
                    edges[node].append(target)
                }
            }
            site["https://example.com/n\(node)"] = found
        }
        // Leaves (no links) may fail without changing what is reachable.
        var failing = Set<String>()
        for node in 0..<nodes where edges[node].isEmpty && Bool.random(using: &generator) {
            failing.insert("https://example.com/n\(node)")
        }
        var reachable: Set<Int> = [0]
        var pending = [0]
        while let node = pending.popLast() {
            for target in edges[node] where reachable.insert(target).inserted { pending.append(target) }
        }
        return (site, Set(reachable.map { "https://example.com/n\($0)" }), failing)
    }

    @Test("every reachable in-scope URL is fetched exactly once, whatever the schedule", arguments: 0..<30)
    func randomisedSchedules(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let nodes = Int.random(in: 20...400, using: &generator)
        let (site, reachable, failing) = try Self.randomSite(nodes: nodes, using: &generator)
        var frontier = try makeFrontier(start: "https://example.com/n0")
        var crawl = SimulatedCrawl()
        crawl.site = site
        crawl.failing = failing
        crawl.concurrency = Int.random(in: 1...8, using: &generator)
        crawl.random = SplitMix64(seed: seed &+ 1000)
        #expect(crawl.run(&frontier) == .exhausted)
        let fetched = crawl.fetched.map(\.url.string)
        #expect(fetched.count == Set(fetched).count, "a URL was fetched twice")
        #expect(Set(fetched) == reachable)
        let stats = frontier.stats
        #expect(stats.queued == 0 && stats.inFlight == 0)
        #expect(stats.done + stats.failed == fetched.count)
        #expect(stats.failed == reachable.intersection(failing).count)
    }

    @Test("with a page limit, random schedules never exceed it", arguments: 0..<10)
    func randomisedLimits(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let (site, reachable, _) = try Self.randomSite(nodes: 200, using: &generator)
        let limit = Int.random(in: 0...reachable.count + 5, using: &generator)
        var frontier = try makeFrontier(start: "https://example.com/n0", limits: FrontierLimits(maxPages: limit))
        var crawl = SimulatedCrawl()
        crawl.site = site
        crawl.concurrency = Int.random(in: 1...8, using: &generator)
        crawl.random = SplitMix64(seed: seed &+ 77)
        let reason = crawl.run(&frontier)
        #expect(crawl.fetched.count == min(limit, reachable.count))
        #expect(Set(crawl.fetched.map(\.url.string)).count == crawl.fetched.count)
        if limit >= reachable.count {
            #expect(reason == .exhausted)
        } else {
            #expect(reason == .pageLimit)
        }
    }
}
