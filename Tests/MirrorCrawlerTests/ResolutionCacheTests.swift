import MirrorCore
import Testing
@testable import MirrorCrawler

@Suite("Resolution cache") struct ResolutionCacheTests {
    static let bases = [
        "https://site.test/a/b.html", "https://site.test/a/c.html?x=1", "https://site.test/a/", "https://site.test/a/d#frag",
        "https://site.test/", "https://site.test/z/b.html", "http://site.test/a/b.html", "https://site.test:8443/a/b.html",
        "https://other.test/a/b.html",
    ]
    static let values = [
        "d.css", "../up.png", "./same.js", "/root.html", "?q=1", "#top", "", "  spaced.html", "//cdn.test/x.js",
        "https://abs.test/p", "mailto:x@y", "javascript:void(0)", "a/../b/./c.html", "%2e%2e/x", "sub/", "d.css#f",
        "http:relative", "\\back\\slash.png", "a b.html", "q?x=1#y",
        // Fragments: looked up without them, normalised apart.
        "p.html#a", "p.html#b", "p.html#%7e%41", "p.html#", "p.html#x#y", "p.html#é", "p.html#a b", "p.html#\tz",
        "https://abs.test/p#Frag%41", "//cdn.test/x.js#f", "http:#x", "http:p.html#x", "mailto:a#b", "%zz#f",
        "http://[bad#x", "../up.png?v=2#f", "sub/#f", "p.html#<>\"",
    ]

    /// Every (base, value) pair gives what resolving it directly gives, first and when cached,
    /// whichever base of the same folder filled the entry; values whose meaning depends on the
    /// base's file or query (`?…`, `#…`, empty) are never shared between bases.
    @Test func cachedTargetsEqualDirectResolution() throws {
        let cache = ResolutionCache()
        for round in 0..<2 {
            for baseText in Self.bases {
                let base = try #require(WebURL(baseText))
                let folder = ResolutionCache.Folder(of: base)
                for value in Self.values {
                    #expect(cache.resolve(value, baseURL: base, folder: folder)
                                == ResolutionCache.Resolution(LinkPlanner.target(of: value, baseURL: base)),
                            "round \(round): \(value) against \(baseText)")
                }
            }
        }
    }

    @Test func folderKeysIgnoreFileQueryAndFragment() throws {
        let b = try #require(WebURL("https://site.test/a/b.html?x=1#f"))
        let c = try #require(WebURL("https://site.test/a/c.html"))
        let d = try #require(WebURL("https://site.test/a/b/"))
        #expect(ResolutionCache.folderKey(of: b) == ResolutionCache.folderKey(of: c))
        #expect(ResolutionCache.folderKey(of: b) != ResolutionCache.folderKey(of: d))
        #expect(ResolutionCache.folderKey(of: try #require(WebURL("https://site.test/a?x=/y/z"))) == "https://site.test/")
    }

    /// Past its capacity the cache starts over; answers stay right.
    @Test func aFullCacheStartsOverAndStaysCorrect() throws {
        let cache = ResolutionCache(capacity: 3)  // two generations of 3
        let base = try #require(WebURL("https://site.test/a/b.html"))
        let folder = ResolutionCache.Folder(of: base)
        for i in 0..<50 {
            let value = "p\(i % 7).html"
            #expect(cache.resolve(value, baseURL: base, folder: folder) == ResolutionCache.Resolution(LinkPlanner.target(of: value, baseURL: base)))
        }
    }

    /// Near the URL length limit a fragment can make the whole reference too long where its
    /// part before `#` is not: the cache must not answer from that part.
    @Test func aFragmentThatReachesTheLengthLimitIsNotAnsweredFromTheCache() throws {
        let long = "https://site.test/" + String(repeating: "d", count: WebURL.defaultMaximumLength - 40) + "/b.html"
        let base = try #require(WebURL(long))
        let folder = ResolutionCache.Folder(of: base)
        let cache = ResolutionCache()
        for value in ["p.html", "p.html#" + String(repeating: "f", count: 60), "p.html#short"] {
            let direct = ResolutionCache.Resolution(LinkPlanner.target(of: value, baseURL: base))
            #expect(cache.resolve(value, baseURL: base, folder: folder) == direct, "\(value.prefix(12))")
        }
        #expect(ResolutionCache.Resolution(LinkPlanner.target(of: "p.html#" + String(repeating: "f", count: 60), baseURL: base))?.target == .invalid)
    }

    /// A finished run takes the entries out (to free them elsewhere): the cache is empty, and
    /// answers as before when used again.
    @Test func removeAllEmptiesTheCacheAndItStillAnswers() throws {
        let cache = ResolutionCache()
        let base = try #require(WebURL("https://site.test/a/b.html"))
        let folder = ResolutionCache.Folder(of: base)
        for value in ["p.html", "../q.png", "/r.css#x"] { _ = cache.resolve(value, baseURL: base, folder: folder) }
        #expect(cache.count == 3)
        _ = cache.removeAll()
        #expect(cache.count == 0)
        for value in ["p.html", "../q.png", "/r.css#x"] {
            #expect(cache.resolve(value, baseURL: base, folder: folder) == ResolutionCache.Resolution(LinkPlanner.target(of: value, baseURL: base)))
        }
        #expect(cache.count == 3)
    }

    /// The many anchors of one page share the entry of the page.
    @Test func anchorsOfOnePageShareOneEntry() throws {
        let cache = ResolutionCache(capacity: 1)  // one entry per generation: a second key evicts
        let base = try #require(WebURL("https://site.test/a/b.html"))
        let folder = ResolutionCache.Folder(of: base)
        let first = try #require(cache.resolve("p.html#one", baseURL: base, folder: folder))
        let second = try #require(cache.resolve("p.html#two", baseURL: base, folder: folder))
        #expect(first.target == second.target)
        #expect(first.fragment == "one" && second.fragment == "two")
        #expect(cache.count == 1)
    }
}
