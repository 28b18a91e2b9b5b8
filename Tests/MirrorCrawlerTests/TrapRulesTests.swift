import MirrorCore
import Testing
@testable import MirrorCrawler

/// The crawler-trap rules inside the frontier, against endless generated traps and against
/// ordinary sites that must still be crawled whole.
@Suite("Crawler-trap rules")
struct TrapRulesTests {
    /// The frontier with the defaults the CLI uses (rules on, depth 20).
    func defaultFrontier() throws -> Frontier {
        var configuration = ScopeConfiguration()
        configuration.maxDepth = TrapRules.defaultDepth
        return try makeFrontier(configuration: configuration, limits: FrontierLimits(traps: .defaults))
    }

    /// Page links on example.com, from paths.
    static func pages(_ paths: [String]) -> [DiscoveredLink] {
        paths.map { DiscoveredLink(url: WebURL("https://example.com" + $0)!, isRequisite: false) }
    }

    static func heldRules(_ results: [DiscoveryResult]) -> [TrapRule] {
        results.compactMap { if case .heldBack(let rule, _) = $0 { rule } else { nil } }
    }

    @Test("an endless calendar (each month links the next) is cut by the shape chain")
    func calendar() throws {
        var frontier = try makeFrontier(limits: FrontierLimits(traps: .defaults))
        var crawl = SimulatedCrawl()
        crawl.site["https://example.com/"] = Self.pages(["/calendar/2026/11", "/about"])
        crawl.generate = { url in
            let parts = url.path.split(separator: "/")
            guard parts.count == 3, parts[0] == "calendar", let year = Int(parts[1]), let month = Int(parts[2]) else { return [] }
            let next = month == 12 ? "/calendar/\(year + 1)/1" : "/calendar/\(year)/\(month + 1)"
            let previous = month == 1 ? "/calendar/\(year - 1)/12" : "/calendar/\(year)/\(month - 1)"
            return Self.pages([previous, next])
        }
        crawl.maxFetches = 10_000
        #expect(crawl.run(&frontier) == .exhausted)
        let months = crawl.fetched.filter { $0.url.path.hasPrefix("/calendar/") }
        let limit = try #require(TrapRules.defaults.maxShapeChain)
        // The month linked from the start page, then `limit` more of the same shape each way.
        #expect(months.count == 2 * limit + 1, "\(months.count) months fetched")
        #expect(Self.heldRules(crawl.results) == [.shapeChain, .shapeChain])
        #expect(crawl.fetched.contains { $0.url.path == "/about" })
    }

    @Test("a session id that grows in the query is cut after a few steps")
    func growingSessionID() throws {
        var frontier = try defaultFrontier()
        var crawl = SimulatedCrawl()
        crawl.site["https://example.com/"] = Self.pages(["/s?sid=a1"])
        crawl.generate = { url in
            guard url.path == "/s", let sid = url.query?.dropFirst(4) else { return [] }
            return TrapRulesTests.pages(["/s?sid=\(sid)x"])
        }
        crawl.maxFetches = 10_000
        #expect(crawl.run(&frontier) == .exhausted)
        let limit = try #require(TrapRules.defaults.maxGrowingSteps)
        #expect(crawl.fetched.count == 1 + 1 + limit)
        #expect(Self.heldRules(crawl.results) == [.growingValue])
    }

    @Test("relative links that loop (/x/y/y/…, /a/b/a/b/…) are cut by the repeated-segment rule")
    func repeatedSegments() throws {
        var frontier = try defaultFrontier()
        var crawl = SimulatedCrawl()
        crawl.site["https://example.com/"] = Self.pages(["/x/y/", "/a/b/"])
        // Each page links "y/" (or "a/b/") relative to itself, as a page served at any path does.
        crawl.generate = { url in
            TrapRulesTests.pages([url.path + (url.path.hasPrefix("/x/") ? "y/" : "a/b/")])
        }
        crawl.maxFetches = 10_000
        #expect(crawl.run(&frontier) == .exhausted)
        let limit = try #require(TrapRules.defaults.maxSegmentRepeats)
        #expect(crawl.fetched.filter { $0.url.path.hasPrefix("/x/") }.count == limit)
        #expect(crawl.fetched.filter { $0.url.path.hasPrefix("/a/") }.count == limit)
        #expect(Self.heldRules(crawl.results) == [.repeatedSegment, .repeatedSegment])
        #expect(crawl.fetched.allSatisfy { URLShape.segments(of: $0.url.path).mostRepeated <= limit })
    }

    @Test("ever deeper folders with new names are cut by the path-segment rule")
    func deepFolders() throws {
        var frontier = try makeFrontier(limits: FrontierLimits(traps: .defaults))
        var crawl = SimulatedCrawl()
        crawl.site["https://example.com/"] = Self.pages(["/d/n1/"])
        crawl.generate = { url in
            let depth = url.path.split(separator: "/").count
            return TrapRulesTests.pages([url.path + "n\(depth + 1)/"])
        }
        crawl.maxFetches = 10_000
        #expect(crawl.run(&frontier) == .exhausted)
        let limit = try #require(TrapRules.defaults.maxPathSegments)
        #expect(crawl.fetched.count == 1 + limit - 1)
        #expect(Self.heldRules(crawl.results) == [.pathSegments])
    }

    @Test("a faceted search is cut by the query-variant rule; numeric ids count once")
    func facets() throws {
        var frontier = try defaultFrontier()
        var crawl = SimulatedCrawl()
        let colors = (0..<30).map { "c\($0)" }, sizes = (0..<30).map { "s\($0)" }
        crawl.site["https://example.com/"] = Self.pages(["/shop", "/view?pageId=0"])
        crawl.generate = { url in
            if url.path == "/shop", url.query == nil {
                return TrapRulesTests.pages(colors.flatMap { c in sizes.map { "/shop?color=\(c)&size=\($0)" } })
            }
            // A wiki of 2,501 pages behind numeric ids, each page linking five below it.
            if url.path == "/view", let id = url.query.flatMap({ Int($0.dropFirst(7)) }) {
                return TrapRulesTests.pages((1...5).map { id * 5 + $0 }.filter { $0 <= 2_500 }.map { "/view?pageId=\($0)" })
            }
            return []
        }
        #expect(crawl.run(&frontier) == .exhausted)
        let limit = try #require(TrapRules.defaults.maxQueryVariants)
        #expect(crawl.fetched.filter { $0.url.path == "/shop" && $0.url.query != nil }.count == limit)
        #expect(Self.heldRules(crawl.results).allSatisfy { $0 == .queryVariants })
        #expect(Self.heldRules(crawl.results).count == 900 - limit)
        // The 2,501 wiki pages behind numeric ids are all crawled.
        #expect(crawl.fetched.filter { $0.url.path == "/view" }.count == 2_501)
    }

    @Test("ordinary sites are crawled whole: a tree with indexes and prev/next chains, a paginated archive")
    func ordinarySitesPass() throws {
        var frontier = try defaultFrontier()
        var crawl = SimulatedCrawl()
        // 2,000 pages in 80 folders of 25, each folder's index lists its pages, and every page
        // links the previous and next one (the benchmark site's shape).
        @Sendable func page(_ i: Int) -> String { "/docs/s\(i / 200)/t\(i / 25 % 8)/p\(i).html" }
        var root = (0..<10).map { "/docs/s\($0)/" }
        root.append("/archive?page=1")
        crawl.site["https://example.com/"] = Self.pages(root)
        crawl.generate = { url in
            let path = url.path
            if path == "/archive", let n = url.query.flatMap({ Int($0.dropFirst(5)) }) {
                // An archive of 100 pages that links the first, the last and the next ten, and
                // ten posts each: 1,000 posts behind numeric ids.
                let pages = ([1, 100] + Array(n + 1..<min(101, n + 11))).map { "/archive?page=\($0)" }
                return TrapRulesTests.pages(pages + (1...10).map { "/post?id=\((n - 1) * 10 + $0)" })
            }
            let parts = path.split(separator: "/")
            if parts.count == 2 { return TrapRulesTests.pages((0..<8).map { "\(path)t\($0)/" }) }
            if parts.count == 3, let s = Int(parts[1].dropFirst()), let t = Int(parts[2].dropFirst()) {
                let first = s * 200 + t * 25
                return TrapRulesTests.pages((first..<first + 25).map(page))
            }
            if parts.count == 4, let i = Int(parts[3].dropFirst().dropLast(5)) {
                return TrapRulesTests.pages([page(max(0, i - 1)), page(min(1_999, i + 1))])
            }
            return []
        }
        #expect(crawl.run(&frontier) == .exhausted)
        #expect(Self.heldRules(crawl.results).isEmpty)
        #expect(!crawl.results.contains { if case .refused = $0 { true } else { false } })
        #expect(crawl.fetched.filter { $0.url.path.hasSuffix(".html") }.count == 2_000)
        #expect(crawl.fetched.filter { $0.url.path == "/archive" }.count == 100)
        #expect(crawl.fetched.filter { $0.url.path == "/post" }.count == 1_000)
    }

    @Test("a page a chain reaches first keeps the lower counters an index gives it")
    func indexedPagesAreNotHeldBack() throws {
        var rules = TrapRules.defaults
        rules.maxShapeChain = 2
        var frontier = try makeFrontier(limits: FrontierLimits(traps: rules))
        guard case .fetch(let root) = frontier.next() else { Issue.record("no start"); return }
        // The start page links /p1 and an index; /p1 starts a chain /p2, /p3 …
        _ = frontier.discover(Self.pages(["/p1", "/index"]), from: root)
        frontier.complete(root, bytes: 1)
        var fetched: [String: FrontierItem] = [:]
        func fetch() -> FrontierItem? {
            guard case .fetch(let item) = frontier.next() else { return nil }
            fetched[item.url.path] = item
            return item
        }
        let p1 = try #require(fetch()), index = try #require(fetch())
        _ = frontier.discover(Self.pages(["/p2"]), from: p1)
        frontier.complete(p1, bytes: 1)
        let p2 = try #require(fetch())
        #expect(p2.chain == 1)
        _ = frontier.discover(Self.pages(["/p3"]), from: p2)  // queued with chain 2
        frontier.complete(p2, bytes: 1)
        // The index lists /p3 (and /p4 is new from it): /p3's chain drops to 0.
        _ = frontier.discover(Self.pages(["/p3", "/p4"]), from: index)
        frontier.complete(index, bytes: 1)
        let p3 = try #require(fetch())
        #expect(p3.url.path == "/p3")
        #expect(p3.chain == 0)
        let results = frontier.discover(Self.pages(["/p5"]), from: p3)
        if case .queued(let p5) = results[0] { #expect(p5.chain == 1) } else { Issue.record("p5 held back: \(results)") }
    }

    @Test("with the rules off the same traps are not bounded (the rules are what bound them)")
    func rulesOff() throws {
        var frontier = try makeFrontier(limits: FrontierLimits(traps: .off))
        var crawl = SimulatedCrawl()
        crawl.site["https://example.com/"] = Self.pages(["/calendar/1", "/s?sid=a"])
        crawl.generate = { url in
            if url.path.hasPrefix("/calendar/"), let n = Int(url.path.dropFirst(10)) { return TrapRulesTests.pages(["/calendar/\(n + 1)"]) }
            if url.path == "/s", let sid = url.query?.dropFirst(4) { return TrapRulesTests.pages(["/s?sid=\(sid)x"]) }
            return []
        }
        crawl.maxFetches = 500
        #expect(crawl.run(&frontier) == .cancelled)
        #expect(crawl.fetched.count == 500)
        #expect(Self.heldRules(crawl.results).isEmpty)
    }

    @Test("requisites and start URLs are never held back")
    func requisitesPass() throws {
        var rules = TrapRules.defaults
        rules.maxPathSegments = 2
        let deep = "https://example.com/a/b/c/d/e/"
        var frontier = Frontier(scope: try CrawlScope(startURLs: [try webURL(deep)], configuration: ScopeConfiguration()),
                                limits: FrontierLimits(traps: rules))
        frontier.seed([try webURL(deep)])
        guard case .fetch(let root) = frontier.next() else { Issue.record("the deep start URL was not fetched"); return }
        let results = frontier.discover(try links(("/x/y/z/img.png", true), ("/x/y/z/page.html", false)), from: root)
        if case .queued = results[0] {} else { Issue.record("requisite held back: \(results[0])") }
        #expect(Self.heldRules([results[1]]) == [.pathSegments])
    }

    @Test("halt stops new fetches, keeps the queue, and finishes with the reason once in-flight items end")
    func halt() throws {
        var frontier = try makeFrontier()
        guard case .fetch(let root) = frontier.next() else { Issue.record("no start"); return }
        _ = frontier.discover(Self.pages(["/a", "/b", "/c"]), from: root)
        frontier.complete(root, bytes: 1)
        guard case .fetch(let a) = frontier.next() else { Issue.record("no /a"); return }
        frontier.halt(.runTimeLimit)
        frontier.halt(.interrupted)  // the first reason wins
        #expect(frontier.next() == .wait)
        frontier.complete(a, bytes: 1)
        #expect(frontier.next() == .finished(.runTimeLimit))
        #expect(Set(frontier.unfetched.map(\.url.path)) == ["/b", "/c"])
    }

    @Test("seedFirst queues items ahead of every depth, keeping their depth and kind")
    func seedFirst() throws {
        var frontier = try makeFrontier()
        frontier.seedFirst([FrontierItem(url: try webURL("https://example.com/stale.css"), depth: 3, isRequisite: true, referrer: nil),
                            FrontierItem(url: try webURL("https://example.com/"), depth: 5, isRequisite: false, referrer: nil)])
        guard case .fetch(let first) = frontier.next(), case .fetch(let second) = frontier.next() else {
            Issue.record("nothing fetched"); return
        }
        #expect(first.url.path == "/stale.css" && first.depth == 3 && first.isRequisite)
        // The start URL was known already: it keeps its own depth 0.
        #expect(second.url.path == "/" && second.depth == 0)
    }
}
