import MirrorCore
import MirrorStore
import Testing
@testable import MirrorCrawler

/// `Crawler.PathCache`: a rewrite worker's lookups of local paths, kept by URL id.
struct PathCacheTests {
    /// A stored page, two reserved paths, a linked URL whose path a stored file took, and URLs
    /// the crawl never saw: the cache answers each as ``LocalPaths`` does, the first time and
    /// again from its table.
    @Test func answersAsTheLocalPathsDoForKnownLinkedAndUnknownURLs() async throws {
        let state = CrawlState(frontier: try makeFrontier(seed: false), spills: try .inMemory())
        let stored = ManifestEntry(
            url: try webURL("https://example.com/a.html"), localPath: "b.html", status: 200, contentType: "text/html",
            references: ["https://example.com/b.html", "https://example.com/c.html", "https://example.com/d/"])
        await state.carry(stored, kind: nil)
        _ = await state.reservePaths(mapper: PathMapper(primaryOrigin: try webURL("https://example.com/")))
        let paths = await state.localPaths()
        var cache = Crawler.PathCache(paths: paths)
        let expected: [(String, String?)] = [
            ("https://example.com/a.html", "b.html"),
            ("https://example.com/c.html", "c.html"),
            ("https://example.com/d/", "d/index.html"),
            ("https://example.com/b.html", nil),  // linked, but its path is a stored file's
            ("https://elsewhere.test/x.html", nil),  // never seen
            ("https://example.com/never.html", nil),
        ]
        for _ in 0..<2 {
            for (key, path) in expected {
                #expect(cache.path(ofKey: key) == path, "\(key)")
                #expect(paths.path(ofKey: key) == path, "\(key)")
            }
        }
    }

    /// More stored pages than the cache keeps: it starts over when full and every answer stays
    /// the page's own path.
    @Test func aFullCacheStartsOverAndStaysCorrect() async throws {
        let state = CrawlState(frontier: try makeFrontier(seed: false), spills: try .inMemory())
        let count = Crawler.PathCache.capacity + 300
        for index in 0..<count {
            await state.carry(ManifestEntry(
                url: try webURL("https://example.com/p\(index).html"), localPath: "pages/p\(index).html", status: 200,
                contentType: "text/html", references: []), kind: nil)
        }
        var cache = Crawler.PathCache(paths: await state.localPaths())
        for round in 0..<2 {
            for index in stride(from: round, to: count, by: 1) {
                #expect(cache.path(ofKey: "https://example.com/p\(index).html") == "pages/p\(index).html")
            }
        }
        #expect(cache.path(ofKey: "https://example.com/p\(count).html") == nil)
    }
}
