import Foundation
import MirrorCore
import Testing
import MirrorStore
@testable import MirrorCrawler

/// The worker loop of a crawl (``CrawlState/runWorker(robotsAgent:fetch:)``), driven by a fetch
/// closure instead of the network.
@Suite("Crawl worker loop")
struct CrawlWorkerTests {
    @Test("the action a fetch hands back is the worker's next one; the loop ends when the frontier does")
    func followsTheHandedBackAction() async throws {
        let state = try Self.stateWithTwoQueuedPages()
        let fetched = Paths()
        await state.runWorker(robotsAgent: nil) { item in
            await fetched.append(item.url.path)
            await state.completeAlias(item)
            // "/a" answers with its next action, "/b" leaves the asking to the loop.
            return item.url.path == "/a" ? await state.nextAction(robotsAgent: nil) : nil
        }
        #expect(await fetched.paths == ["/a", "/b"])
        #expect(await state.finishReason == .exhausted)
    }

    @Test("cancelled while holding a URL it was handed, a worker fails that URL and the crawl ends")
    func cancellationWithAURLInHand() async throws {
        let state = try Self.stateWithTwoQueuedPages()
        let worker = Task {
            await state.runWorker(robotsAgent: nil) { item in
                // The run is interrupted while this fetch is busy; its outcome is recorded
                // together with the next URL, as a stored page's is.
                withUnsafeCurrentTask { $0?.cancel() }
                await state.completeAlias(item)
                return await state.nextAction(robotsAgent: nil)
            }
        }
        // Without the hand-back, "/b" would stay in flight and the worker would wait for ever.
        for _ in 0..<500 where await state.finishReason == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await state.finishReason == .cancelled)
        let failures = await state.failures
        #expect(failures.map(\.url) == ["https://example.com/b"])
        #expect(failures.first?.kind == "cancelled")
        #expect(await state.frontier.stats.inFlight == 0)
        if await state.finishReason != nil { await worker.value }
    }
}

extension CrawlWorkerTests {
    /// A crawl whose start page was fetched and linked "/a" and "/b", both queued.
    static func stateWithTwoQueuedPages() throws -> CrawlState {
        try stateWithQueuedPages(["/a", "/b"])
    }

    /// A crawl whose start page was fetched and linked `paths`, all queued.
    static func stateWithQueuedPages(_ paths: [String], activeLimit: (@Sendable () -> Int)? = nil) throws -> CrawlState {
        var frontier = try makeFrontier()
        var first: FrontierItem?
        if case .fetch(let item) = frontier.next() { first = item }
        let root = try #require(first, "no first fetch")
        let found = try paths.map { DiscoveredLink(url: try webURL("https://example.com" + $0), isRequisite: false) }
        _ = frontier.discover(found, from: root)
        frontier.complete(root, bytes: 1)
        return CrawlState(frontier: frontier, spills: try .inMemory(), activeLimit: activeLimit)
    }

    /// Runs `workers` workers whose fetches each take a few milliseconds (so that they overlap
    /// when nothing holds them back); returns the most fetches seen at once and how many ran.
    static func crawlConcurrently(_ state: CrawlState, workers: Int) async -> (peak: Int, fetched: Int) {
        let gauge = Gauge()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask { await work(state, gauge) }
            }
        }
        return (await gauge.peak, await gauge.total)
    }

    /// One worker's loop whose fetches take a few milliseconds each, measured by `gauge`.
    fileprivate static func work(_ state: CrawlState, _ gauge: Gauge) async {
        await state.runWorker(robotsAgent: nil) { item in
            await gauge.enter()
            try? await Task.sleep(for: .milliseconds(3))
            await gauge.leave()
            await state.completeAlias(item)
            return nil
        }
    }
}

@Suite("Crawl worker limit")
struct CrawlWorkerLimitTests {
    static let pages = (0..<40).map { "/p\($0)" }

    @Test("without a limit, the workers fetch side by side (the measure can see more than the limit)")
    func withoutALimitWorkersOverlap() async throws {
        let state = try CrawlWorkerTests.stateWithQueuedPages(Self.pages)
        let (peak, fetched) = await CrawlWorkerTests.crawlConcurrently(state, workers: 8)
        #expect(fetched == 40)
        #expect(peak > 3, "eight workers with 3 ms fetches never overlapped: the limit test below would prove nothing")
        #expect(await state.finishReason == .exhausted)
    }

    @Test("at most activeLimit URLs are in flight however many workers there are, and the crawl still ends")
    func limitHoldsWorkersBack() async throws {
        let state = try CrawlWorkerTests.stateWithQueuedPages(Self.pages, activeLimit: { 3 })
        let (peak, fetched) = await CrawlWorkerTests.crawlConcurrently(state, workers: 8)
        #expect(fetched == 40)
        #expect(peak <= 3)
        #expect(peak >= 2, "the limit is a ceiling, not one at a time")
        #expect(await state.finishReason == .exhausted)
        #expect(await state.frontier.stats.inFlight == 0)
    }

    @Test("a limit raised during the crawl lets the parked workers go at the next completion")
    func raisedLimitWakesWorkers() async throws {
        let limit = LimitBox(1)
        let state = try CrawlWorkerTests.stateWithQueuedPages(Self.pages, activeLimit: { limit.value })
        let gauge = Gauge()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await state.runWorker(robotsAgent: nil) { item in
                        await gauge.enter()
                        // After the fifth fetch the window widens, as the engine's does once it
                        // has measured the link.
                        if await gauge.total == 5 { limit.value = 6 }
                        try? await Task.sleep(for: .milliseconds(3))
                        await gauge.leave()
                        await state.completeAlias(item)
                        return nil
                    }
                }
            }
        }
        #expect(await gauge.total == 40)
        #expect(await gauge.peak > 1)
        #expect(await gauge.peak <= 6)
        #expect(await state.finishReason == .exhausted)
    }

    @Test("a worker that records its result and asks for more takes the place it freed: no parked worker is woken for it")
    func recordingWorkerTakesTheFreedPlace() async throws {
        let state = try CrawlWorkerTests.stateWithQueuedPages(Self.pages, activeLimit: { 1 })
        guard case .fetch(let first) = await state.nextAction(robotsAgent: nil) else { Issue.record("no URL handed out"); return }
        // A second worker parks: one URL in flight is the limit.
        let parked = Task { await state.nextAction(robotsAgent: nil) }
        try await Task.sleep(for: .milliseconds(20))
        let previous = ManifestEntry(url: first.url, localPath: "p.html", status: 200)
        let next = await state.revalidatedThenNext(first, previous: previous, documentKind: nil, robotsAgent: nil)
        guard case .fetch(let second) = next else { Issue.record("the recording worker got no URL"); return }
        #expect(await state.wakeUps == 0, "the parked worker was woken only to park again")
        #expect(await state.frontier.stats.inFlight == 1)
        // A completion with no next request frees the place for the parked worker.
        await state.completeAlias(second)
        guard case .fetch = await parked.value else { Issue.record("the parked worker got no URL"); return }
        #expect(await state.wakeUps == 1)
    }

    @Test("cancelled while workers are parked at the limit, every worker ends")
    func cancellationReachesParkedWorkers() async throws {
        let state = try CrawlWorkerTests.stateWithQueuedPages(Self.pages, activeLimit: { 1 })
        let crawl = Task {
            await CrawlWorkerTests.crawlConcurrently(state, workers: 8)
        }
        try await Task.sleep(for: .milliseconds(10))
        crawl.cancel()
        let (_, fetched) = await crawl.value
        #expect(fetched < 40)
        #expect(await state.finishReason == .cancelled)
    }

    @Test("with every worker busy, queued URLs ask for more workers: no more than the limit allows and the most")
    func busyWorkersAskForMore() async throws {
        let state = try CrawlWorkerTests.stateWithQueuedPages(Self.pages, activeLimit: { 5 })
        let asked = Asked()
        await state.enableSpawning(workers: 1, most: 8) { count in Task { await asked.add(count) } }
        // The one worker takes a URL and finishes it: 39 queued, none in flight, none parked.
        guard case .fetch(let item) = await state.nextAction(robotsAgent: nil) else { Issue.record("no URL handed out"); return }
        await state.completeAlias(item)
        try await Task.sleep(for: .milliseconds(20))
        #expect(await asked.counts == [5], "five in flight at most: five workers asked for")
        // Nothing more until one of them is parked or done: the next event asks for the rest, up to 8.
        guard case .fetch(let second) = await state.nextAction(robotsAgent: nil) else { Issue.record("no URL handed out"); return }
        await state.completeAlias(second)
        try await Task.sleep(for: .milliseconds(20))
        #expect(await asked.counts == [5, 2], "the most is 8 workers: 6 started, 2 more")
        guard case .fetch(let third) = await state.nextAction(robotsAgent: nil) else { Issue.record("no URL handed out"); return }
        await state.completeAlias(third)
        try await Task.sleep(for: .milliseconds(20))
        #expect(await asked.counts == [5, 2], "no more than the most")
    }

    @Test("workers started on demand fetch everything, within the limit, and the crawl ends")
    func spawnedWorkersFinishTheCrawl() async throws {
        let state = try CrawlWorkerTests.stateWithQueuedPages(Self.pages, activeLimit: { 6 })
        let gauge = Gauge()
        let (events, sink) = AsyncStream<Int>.makeStream()
        await state.enableSpawning(workers: 1, most: 32) { sink.yield($0) }
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            func start(_ count: Int) {
                running += count
                for _ in 0..<count {
                    group.addTask {
                        await CrawlWorkerTests.work(state, gauge)
                        sink.yield(-1)
                    }
                }
            }
            start(1)
            for await event in events {
                if event < 0 { running -= 1 } else { start(event) }
                if running == 0 { break }
            }
        }
        #expect(await gauge.total == 40)
        #expect(await gauge.peak <= 6)
        #expect(await gauge.peak > 1, "one worker asked for others")
        #expect(await state.finishReason == .exhausted)
    }

    @Test("the crawler's limit is the client's window plus a margin, and no limit before the window is known")
    func limitFollowsTheWindow() {
        #expect(Crawler.activeLimit(window: 16) == 16 + Crawler.activeMargin)
        #expect(Crawler.activeLimit(window: .max) == .max)
        #expect(Crawler.activeLimit(window: .max - 1) == .max)
    }
}

/// How many fetches run at once: the most seen, and how many there were.
private actor Gauge {
    private var current = 0
    private(set) var peak = 0
    private(set) var total = 0
    func enter() {
        current += 1
        total += 1
        peak = max(peak, current)
    }
    func leave() { current -= 1 }
}

/// The worker counts a crawl state asked for, in order.
private actor Asked {
    private(set) var counts: [Int] = []
    func add(_ count: Int) { counts.append(count) }
}

/// A limit the test changes while workers read it.
private final class LimitBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int
    init(_ value: Int) { stored = value }
    var value: Int {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

/// The paths a worker fetched, in order.
private actor Paths {
    var paths: [String] = []
    func append(_ path: String) { paths.append(path) }
}
