import Foundation
import MirrorCore
import Testing
import MirrorStore
@testable import MirrorCrawler

/// The crawl tells the HTTP client how many URLs it has found, each time that number doubles
/// (``CrawlState`` `announceKnown`): on a near link a site with many URLs then moves to HTTP/1.1
/// early, and a small one stays on HTTP/2.
@Suite("Known URLs announced to the HTTP client")
struct KnownURLsAnnouncementTests {
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [Int] = []
        func append(_ count: Int) { lock.lock(); counts.append(count); lock.unlock() }
        var all: [Int] { lock.lock(); defer { lock.unlock() }; return counts }
    }

    @Test("each doubling of the frontier's URLs is announced once, and a link seen again announces nothing")
    func doublingsAreAnnounced() async throws {
        var frontier = try makeFrontier()
        guard case .fetch(let root) = frontier.next() else { Issue.record("no first fetch"); return }
        let heard = Heard()
        let state = CrawlState(frontier: frontier, spills: try .inMemory(), announceKnown: { heard.append($0) })
        let seeded = await state.frontier.seenCount
        func links(_ range: Range<Int>) throws -> [DiscoveredLink] {
            try range.map { DiscoveredLink(url: try webURL("https://example.com/p\($0)"), isRequisite: false) }
        }
        await state.offer(try links(0..<2), from: root)
        await state.offer(try links(2..<3), from: root)
        await state.offer(try links(3..<300), from: root)
        let afterAll = heard.all
        // The same links again: the frontier takes nothing new in, nothing is announced.
        await state.offer(try links(0..<300), from: root)
        #expect(heard.all == afterAll)
        #expect(afterAll.last == seeded + 300, "the last count is every URL found: \(afterAll)")
        #expect(afterAll == afterAll.sorted() && Set(afterAll).count == afterAll.count, "\(afterAll)")
        for (earlier, later) in zip(afterAll, afterAll.dropFirst()) {
            #expect(later >= 2 * earlier, "announced again before the count doubled: \(afterAll)")
        }
    }

    @Test("a crawl without a listener offers links as before")
    func noListener() async throws {
        var frontier = try makeFrontier()
        guard case .fetch(let root) = frontier.next() else { Issue.record("no first fetch"); return }
        let state = CrawlState(frontier: frontier, spills: try .inMemory())
        let before = await state.frontier.seenCount
        await state.offer([DiscoveredLink(url: try webURL("https://example.com/x"), isRequisite: false)], from: root)
        #expect(await state.frontier.seenCount == before + 1)
    }
}
