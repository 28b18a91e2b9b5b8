import Foundation
import MirrorCore
import Testing
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
                group.addTask {
                    await state.runWorker(robotsAgent: nil) { item in
                        await gauge.enter()
                        try? await Task.sleep(for: .milliseconds(3))
                        await gauge.leave()
                        await state.completeAlias(item)
                        return nil
                    }
                }
            }
        }
        return (await gauge.peak, await gauge.total)
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
