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
        var frontier = try makeFrontier()
        var first: FrontierItem?
        if case .fetch(let item) = frontier.next() { first = item }
        let root = try #require(first, "no first fetch")
        _ = frontier.discover(try links(("/a", false), ("/b", false)), from: root)
        frontier.complete(root, bytes: 1)
        return CrawlState(frontier: frontier, spills: try .inMemory())
    }
}

/// The paths a worker fetched, in order.
private actor Paths {
    var paths: [String] = []
    func append(_ path: String) { paths.append(path) }
}
