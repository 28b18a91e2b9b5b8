import MirrorCore
import MirrorStore
import Testing
@testable import MirrorCrawler

/// `CrawlState.reservePaths(mapper:)`: the paths of linked URLs that were not stored.
struct ReservedPathTests {
    /// A linked URL whose path a stored file has already gets no reservation (its placeholder
    /// would take the stored file's name); the others get theirs, in order. The same whether
    /// the crawl keeps its paths' fingerprints (a refresh) or computes them (a first mirror).
    @Test(arguments: [true, false])
    func aReservationNeverTakesAStoredPath(keepsPathHashes: Bool) async throws {
        let state = CrawlState(frontier: try makeFrontier(seed: false), spills: try .inMemory(), keepsPathHashes: keepsPathHashes)
        let mapper = PathMapper(primaryOrigin: try webURL("https://example.com/"))
        // A stored page whose file is where b.html would be reserved.
        let stored = ManifestEntry(
            url: try webURL("https://example.com/a.html"), localPath: "b.html", status: 200, contentType: "text/html",
            references: ["https://example.com/b.html", "https://example.com/c.html", "https://example.com/d/"])
        await state.carry(stored, kind: nil)
        let reserved = await state.reservePaths(mapper: mapper)
        #expect(reserved.map(\.url) == ["https://example.com/c.html", "https://example.com/d/"])
        #expect(reserved.map(\.path) == ["c.html", "d/index.html"])
        #expect(await state.pathHashes.isEmpty != keepsPathHashes)
        let paths = await state.localPaths()
        #expect(paths.pathHash(ofKey: "https://example.com/a.html") == ManifestIndex.pathHash("b.html"))
        #expect(paths.pathHash(ofKey: "https://example.com/c.html") == ManifestIndex.pathHash("c.html"))
        #expect(paths.pathHash(ofKey: "https://example.com/b.html") == 0)
    }

    @Test func sortedContainsFindsExactlyTheMembers() {
        let sorted: [UInt64] = [1, 5, 9, 9, 12, .max]
        for value: UInt64 in [1, 5, 9, 12, .max] { #expect(CrawlState.sortedContains(sorted, value)) }
        for value: UInt64 in [0, 2, 10, 13, .max - 1] { #expect(!CrawlState.sortedContains(sorted, value)) }
        #expect(!CrawlState.sortedContains([], 3))
    }
}
