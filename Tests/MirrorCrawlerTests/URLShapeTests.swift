import MirrorCore
import Testing
@testable import MirrorCrawler

@Suite("URL shapes, segments and growth (the trap rules' readings)")
struct URLShapeTests {
    @Test("same shape: numbers in the path and query values by class", arguments: [
        ("https://a.example/calendar/2026/11", "https://a.example/calendar/2027/1", true),
        ("https://a.example/page/7", "https://a.example/page/8", true),
        ("https://a.example/s?sid=a1", "https://a.example/s?sid=a1x", true),
        ("https://a.example/list?offset=10", "https://a.example/list?offset=20", true),
        ("https://a.example/cal?month=2026-11", "https://a.example/cal?month=2026-12", true),
        ("https://a.example/p00012.html", "https://a.example/p00099.html", true),
        ("https://a.example/wiki/Apple", "https://a.example/wiki/Banana", false),
        ("https://a.example/list?offset=10", "https://a.example/list?offset=next", false),
        ("https://a.example/list?offset=10", "https://a.example/list?offset=", false),
        ("https://a.example/list?a=1", "https://a.example/list?b=1", false),
        ("https://a.example/list?a=1", "https://a.example/list?a=1&b=2", false),
        ("https://a.example/page/7", "https://b.example/page/8", false),
        ("https://a.example/page/7", "https://a.example/page/7/", false),
        ("https://a.example/docs/s01/t02/p00042.html", "https://a.example/docs/s01/t02/index.html", false),
    ])
    func shapes(first: String, second: String, same: Bool) throws {
        let a = try webURL(first), b = try webURL(second)
        #expect((URLShape.hash(of: a) == URLShape.hash(of: b)) == same, "\(first) ~ \(second)")
    }

    @Test("segments: the count of non-empty ones and the most repetitions in a row", arguments: [
        ("/", 0, 0),
        ("/a", 1, 1),
        ("/a/b/c/", 3, 1),
        ("/a//b", 2, 1),
        ("/a/b/a/b/a", 5, 2),
        ("/a/b/a/b/a/b/c", 7, 3),
        ("/x/y/y/", 3, 2),
        ("/x/y/z/y/z/y/z/", 7, 3),
        ("/2026/01/01/", 3, 2),
        ("/level/level/level/end.html", 4, 3),
        ("/django/_modules/django/contrib/django/x.html", 6, 1),
    ])
    func segments(path: String, count: Int, repeated: Int) {
        let result = URLShape.segments(of: path)
        #expect(result.count == count, "\(path)")
        #expect(result.mostRepeated == repeated, "\(path)")
    }

    @Test("growth: one value extends the parent's, and it is not a number", arguments: [
        ("https://a.example/s?sid=a1", "https://a.example/s?sid=a1x", true),
        ("https://a.example/s?sid=a1&k=v", "https://a.example/s?sid=a1x&k=v", true),
        ("https://a.example/s/a1/p.html", "https://a.example/s/a1x/p.html", true),
        ("https://a.example/s?sid=a1x", "https://a.example/s?sid=a1", false),
        ("https://a.example/s?sid=a1", "https://a.example/s?sid=b1", false),
        ("https://a.example/s?page=1", "https://a.example/s?page=10", false),
        ("https://a.example/s/12", "https://a.example/s/123", false),
        ("https://a.example/s?sid=a1", "https://a.example/t?sid=a1x", false),
        ("https://a.example/s?sid=a1&k=v", "https://a.example/s?sid=a1x&k=w", false),
        ("https://a.example/s?sid=a1", "https://a.example/s?sid=a1x&more=1", false),
        ("https://a.example/s/a1/a1", "https://a.example/s/a1x/a1x", false),
        ("https://a.example/s?sid=a1", "https://b.example/s?sid=a1x", false),
        ("https://a.example/docs/", "https://a.example/docs/intro/", false),
    ])
    func growth(parent: String, child: String, grows: Bool) throws {
        #expect(URLShape.grows(from: try webURL(parent), to: try webURL(child)) == grows, "\(parent) -> \(child)")
    }

    @Test("query variants: a value of digits only counts as one")
    func queryVariants() throws {
        func variant(_ text: String) throws -> Int? { URLShape.queryVariant(of: try webURL(text)) }
        #expect(try variant("https://a.example/view?pageId=1") == variant("https://a.example/view?pageId=99999"))
        #expect(try variant("https://a.example/list?page=2&sort=asc") == variant("https://a.example/list?page=3&sort=asc"))
        #expect(try variant("https://a.example/list?page=2&sort=asc") != variant("https://a.example/list?page=2&sort=desc"))
        #expect(try variant("https://a.example/shop?color=red") != variant("https://a.example/shop?color=blue"))
        #expect(try variant("https://a.example/shop?color=red") != variant("https://a.example/shop?size=red"))
        #expect(try variant("https://a.example/shop") == nil)
    }
}
