import MirrorCore
import Testing
@testable import MirrorCrawler

@Suite("Frontier state machine")
struct FrontierTests {
    @Test("breadth-first: lower depth first, FIFO within a depth, requisites before deeper pages")
    func breadthFirst() throws {
        var frontier = try makeFrontier()
        var crawl = SimulatedCrawl()
        crawl.site = [
            "https://example.com/": try links(("/a", false), ("/b", false), ("/s.css", true)),
            "https://example.com/a": try links(("/a1", false), ("/c.png", true)),
            "https://example.com/b": try links(("/b1", false)),
            "https://example.com/s.css": try links(("/font.woff", true)),
        ]
        #expect(crawl.run(&frontier) == .exhausted)
        #expect(crawl.fetched.paths == ["/", "/s.css", "/font.woff", "/a", "/b", "/c.png", "/a1", "/b1"])
        #expect(crawl.fetched.map(\.depth) == [0, 0, 0, 1, 1, 1, 2, 2])
        #expect(crawl.fetched.map(\.isRequisite) == [false, true, true, false, false, true, false, false])
        #expect(crawl.fetched[3].referrer == (try webURL("https://example.com/")))
        #expect(frontier.stats == FrontierStats(queued: 0, inFlight: 0, done: 8, failed: 0, bytes: 800, seen: 8, fetched: 8))
    }

    @Test("one fetch per URL whatever the fragment or spelling")
    func deduplication() throws {
        var frontier = try makeFrontier()
        guard case .fetch(let root) = frontier.next() else {
            Issue.record("no first fetch")
            return
        }
        let variants = try links(
            ("/a", false), ("/a#x", false), ("/a#y", true), ("HTTPS://EXAMPLE.COM:443/./a", false),
            ("/b/../a", false), ("/%61", false), ("/a?", false), ("/#top", false))
        let results = frontier.discover(variants, from: root)
        #expect(results.count == 8)
        if case .queued(let item) = results[0] {
            #expect(item.url.string == "https://example.com/a")
            #expect(item.depth == 1)
        } else {
            Issue.record("first /a was not queued: \(results[0])")
        }
        #expect(Array(results.dropFirst()) == Array(repeating: .duplicate, count: 7))
        frontier.complete(root, bytes: 1)
        var crawl = SimulatedCrawl()
        #expect(crawl.run(&frontier) == .exhausted)
        #expect(crawl.fetched.paths == ["/a"])
        #expect(frontier.stats.seen == 2)
    }

    @Test("seeds: fragments ignored, duplicates dropped, empty seed finishes at once")
    func seeds() throws {
        var frontier = try makeFrontier(seed: false)
        frontier.seed([try webURL("https://example.com/#x"), try webURL("https://example.com/"), try webURL("https://example.com/p")])
        var crawl = SimulatedCrawl()
        #expect(crawl.run(&frontier) == .exhausted)
        #expect(crawl.fetched.paths == ["/", "/p"])
        #expect(crawl.fetched.allSatisfy { $0.depth == 0 && !$0.isRequisite && $0.referrer == nil })

        var empty = try makeFrontier(seed: false)
        #expect(empty.next() == .finished(.exhausted))
        #expect(empty.next() == .finished(.exhausted))
    }

    /// A site of `count` pages where page n links to pages 5n+1 … 5n+5.
    static func fanOutSite(count: Int) throws -> [String: [DiscoveredLink]] {
        var site: [String: [DiscoveredLink]] = [:]
        for node in 0..<count {
            let children = (5 * node + 1...5 * node + 5).filter { $0 < count }
            site["https://example.com/p\(node)"] = try children.map {
                DiscoveredLink(url: try webURL("https://example.com/p\($0)"), isRequisite: $0 % 3 == 0)
            }
        }
        return site
    }

    @Test("maxPages N gives exactly N fetches", arguments: [
        (0, FinishReason.pageLimit), (1, .pageLimit), (3, .pageLimit), (7, .pageLimit), (50, .pageLimit),
        (1000, .exhausted), (5000, .exhausted),
    ])
    func pageLimit(maxPages: Int, reason: FinishReason) throws {
        var frontier = try makeFrontier(start: "https://example.com/p0", limits: FrontierLimits(maxPages: maxPages))
        var crawl = SimulatedCrawl()
        crawl.site = try Self.fanOutSite(count: 1000)
        crawl.concurrency = 3
        #expect(crawl.run(&frontier) == reason)
        #expect(crawl.fetched.count == min(maxPages, 1000))
        #expect(frontier.stats.fetched == crawl.fetched.count)
        #expect(Set(crawl.fetched.paths).count == crawl.fetched.count)
    }

    @Test("maxBytes stops new fetches once reached")
    func byteLimit() throws {
        var frontier = try makeFrontier(start: "https://example.com/p0", limits: FrontierLimits(maxBytes: 250))
        var crawl = SimulatedCrawl()
        crawl.site = try Self.fanOutSite(count: 100)
        #expect(crawl.run(&frontier) == .byteLimit)
        #expect(crawl.fetched.count == 3)
        #expect(frontier.stats.bytes == 300)
    }

    @Test("limits and cancellation wait for fetches in flight; finished is final")
    func waitsForInFlight() throws {
        var frontier = try makeFrontier(limits: FrontierLimits(maxPages: 1))
        frontier.seed([try webURL("https://example.com/b")])
        guard case .fetch(let first) = frontier.next() else {
            Issue.record("no first fetch")
            return
        }
        #expect(frontier.next() == .wait)
        #expect(frontier.stats.inFlight == 1)
        frontier.complete(first, bytes: 10)
        #expect(frontier.next() == .finished(.pageLimit))
        #expect(frontier.next() == .finished(.pageLimit))

        var cancelled = try makeFrontier()
        guard case .fetch(let root) = cancelled.next() else {
            Issue.record("no first fetch")
            return
        }
        _ = cancelled.discover(try links(("/x", false)), from: root)
        cancelled.cancel()
        #expect(cancelled.next() == .wait)
        cancelled.fail(root)
        #expect(cancelled.next() == .finished(.cancelled))
        #expect(cancelled.stats.failed == 1)
        #expect(cancelled.stats.inFlight == 0)
        #expect(cancelled.stats.queued == 1)
    }

    @Test("reports for items not in flight are ignored")
    func strayReports() throws {
        var frontier = try makeFrontier()
        let stray = FrontierItem(url: try webURL("https://example.com/never"), depth: 0, isRequisite: false, referrer: nil)
        frontier.complete(stray, bytes: 500)
        frontier.fail(stray)
        guard case .fetch(let root) = frontier.next() else {
            Issue.record("no first fetch")
            return
        }
        frontier.complete(root, bytes: 5)
        frontier.complete(root, bytes: 5)
        frontier.fail(root)
        #expect(frontier.stats == FrontierStats(queued: 0, inFlight: 0, done: 1, failed: 0, bytes: 5, seen: 1, fetched: 1))
        #expect(frontier.next() == .finished(.exhausted))
    }

    @Test("redirect targets are deduplicated")
    func redirects() throws {
        var frontier = try makeFrontier()
        guard case .fetch(let root) = frontier.next() else {
            Issue.record("no first fetch")
            return
        }
        _ = frontier.discover(try links(("/old", false), ("/x", false), ("/y", false)), from: root)
        frontier.complete(root, bytes: 1)
        guard case .fetch(let old) = frontier.next(), case .fetch(let x) = frontier.next(),
              case .fetch(let y) = frontier.next()
        else {
            Issue.record("expected three fetches")
            return
        }
        #expect(frontier.redirected(old, to: try webURL("https://example.com/new#frag")))
        #expect(!frontier.redirected(x, to: try webURL("https://example.com/new")))
        #expect(!frontier.redirected(x, to: try webURL("https://example.com/")))
        #expect(!frontier.redirected(x, to: try webURL("https://example.com/y")))
        #expect(frontier.redirected(y, to: try webURL("https://example.com/y#top")))
        #expect(frontier.discover(try links(("/new", false), ("/new#a", true)), from: old) == [.duplicate, .duplicate])
        frontier.complete(old, bytes: 1)
        frontier.complete(x, bytes: 1)
        frontier.complete(y, bytes: 1)
        #expect(frontier.next() == .finished(.exhausted))
        #expect(frontier.stats.seen == 5)
        #expect(frontier.stats.fetched == 4)
    }

    @Test("a queued requisite that is also linked as a page is fetched once, as a page")
    func requisiteUpgrade() throws {
        var frontier = try makeFrontier()
        var crawl = SimulatedCrawl()
        crawl.site = [
            "https://example.com/": try links(("/frame.html", true), ("/frame.html", false), ("/p", false), ("/img.png", true)),
            "https://example.com/p": try links(("/img.png", false)),
        ]
        #expect(crawl.run(&frontier) == .exhausted)
        #expect(crawl.fetched.paths == ["/", "/frame.html", "/img.png", "/p"])
        #expect(crawl.fetched[1] == FrontierItem(
            url: try webURL("https://example.com/frame.html"), depth: 0, isRequisite: false,
            referrer: try webURL("https://example.com/")))
        // Already fetched as a requisite when /p links to it: not fetched again.
        #expect(crawl.fetched[2].isRequisite)
        #expect(crawl.results.filter { $0 == .duplicate }.count == 2)
    }

    @Test("no upgrade when the page link is out of page scope")
    func noUpgradeWhenExcluded() throws {
        var frontier = try makeFrontier(configuration: ScopeConfiguration(excludes: [.prefix("/frame")]))
        var crawl = SimulatedCrawl()
        crawl.site = ["https://example.com/": try links(("/frame.html", true), ("/frame.html", false))]
        #expect(crawl.run(&frontier) == .exhausted)
        #expect(crawl.fetched.paths == ["/", "/frame.html"])
        #expect(crawl.fetched[1].isRequisite)
        #expect(crawl.results.count == 2)
        #expect(crawl.results[1] == .duplicate)
    }

    @Test("a page queued deep is moved up when found at a smaller depth")
    func depthLowering() throws {
        var frontier = try makeFrontier(seed: false)
        frontier.seed([try webURL("https://example.com/")])
        guard case .fetch(let root) = frontier.next() else {
            Issue.record("no first fetch")
            return
        }
        let deepParent = FrontierItem(url: try webURL("https://example.com/deep"), depth: 5, isRequisite: false, referrer: nil)
        #expect(frontier.discover(try links(("/z", false)), from: deepParent).count == 1)
        #expect(frontier.discover(try links(("/a", false), ("/z", false)), from: root) == [
            .queued(FrontierItem(url: try webURL("https://example.com/a"), depth: 1, isRequisite: false, referrer: root.url)),
            .duplicate,
        ])
        frontier.complete(root, bytes: 0)
        guard case .fetch(let a) = frontier.next(), case .fetch(let z) = frontier.next() else {
            Issue.record("expected two fetches")
            return
        }
        #expect(a.url.requestTarget == "/a")
        #expect(z.url.requestTarget == "/z")
        #expect(z.depth == 1)
        frontier.complete(a, bytes: 0)
        frontier.complete(z, bytes: 0)
        // The stale depth-5 slot of /z is skipped, not fetched a second time.
        #expect(frontier.next() == .finished(.exhausted))
    }

    @Test("refusals carry the scope's decision; over-long URLs are refused")
    func refusals() throws {
        var frontier = try makeFrontier(
            configuration: ScopeConfiguration(maxDepth: 1), limits: FrontierLimits(maxURLLength: 100))
        let parent = FrontierItem(url: try webURL("https://example.com/a"), depth: 1, isRequisite: false, referrer: nil)
        let long = "/" + String(repeating: "x", count: 100)
        let results = frontier.discover(
            try links(("/b", false), ("/b.css", true), ("https://other.test/x", false), (long, true)), from: parent)
        #expect(results.count == 4)
        #expect(results[0] == .refused(.tooDeep))
        if case .queued(let item) = results[1] {
            #expect(item.isRequisite && item.depth == 1)
        } else {
            Issue.record("requisite past maxDepth was not queued: \(results[1])")
        }
        if case .refused(.outOfScope) = results[2] {} else { Issue.record("off-origin link: \(results[2])") }
        if case .tooLong(let length, let limit) = results[3] {
            #expect(length == 120 && limit == 100)
        } else {
            Issue.record("long URL: \(results[3])")
        }
        // A refused URL is not remembered: it can be queued later from a shallower page.
        let root = FrontierItem(url: try webURL("https://example.com/"), depth: 0, isRequisite: false, referrer: nil)
        if case .queued = frontier.discover(try links(("/b", false)), from: root)[0] {} else {
            Issue.record("/b was not queued from depth 0")
        }
    }
}

@Suite struct FrontierClaimTests {
    static let start = WebURL("https://a.test/")!
    static func frontier(maxPages: Int? = nil) throws -> Frontier {
        var frontier = Frontier(scope: try CrawlScope(startURLs: [start], configuration: ScopeConfiguration()),
                                limits: FrontierLimits(maxPages: maxPages, maxBytes: nil, maxURLLength: 8192))
        frontier.seed([start])
        return frontier
    }

    @Test func aClaimedURLIsFetchedOnceAndCounts() throws {
        var frontier = try Self.frontier()
        guard case .fetch(let page) = frontier.next() else { Issue.record("no start"); return }
        let data = WebURL("https://a.test/api/items.json")!
        let claim = frontier.claim(data, isRequisite: true, depth: 0, referrer: page.url)
        let claimed = try #require(claim)
        #expect(claimed.url == data && claimed.isRequisite)
        #expect(frontier.claim(data, isRequisite: true, depth: 0, referrer: page.url) == nil, "in flight already")
        // A page that links it later finds a duplicate, and the frontier never hands it out.
        #expect(frontier.discover([DiscoveredLink(url: data, isRequisite: true)], from: page) == [.duplicate])
        frontier.complete(claimed, bytes: 10)
        frontier.complete(page, bytes: 5)
        #expect(frontier.next() == .finished(.exhausted))
        #expect(frontier.stats.fetched == 2 && frontier.stats.bytes == 15)
    }

    @Test func aQueuedURLIsTakenOutOfTheQueue() throws {
        var frontier = try Self.frontier()
        guard case .fetch(let page) = frontier.next() else { Issue.record("no start"); return }
        let image = WebURL("https://a.test/logo.png")!
        _ = frontier.discover([DiscoveredLink(url: image, isRequisite: true)], from: page)
        let claim = frontier.claim(image, isRequisite: true, depth: 0, referrer: page.url)
        let claimed = try #require(claim)
        #expect(frontier.next() == .wait, "the queued copy is gone; the claim is in flight")
        frontier.complete(claimed, bytes: 1)
        frontier.complete(page, bytes: 1)
        #expect(frontier.next() == .finished(.exhausted))
    }

    @Test func thePageLimitHoldsForClaims() throws {
        var frontier = try Self.frontier(maxPages: 1)
        guard case .fetch(let page) = frontier.next() else { Issue.record("no start"); return }
        #expect(frontier.claim(WebURL("https://a.test/x.js")!, isRequisite: true, depth: 0, referrer: page.url) == nil)
    }
}
