import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorArchive

/// SURT keys as the `surt` package (cdxj-indexer's and pywb's) computes them.
@Suite struct SURTTests {
    /// Expected keys computed with surt 0.3.1 (the venv's), `surt.surt(url)`.
    static let cases: [(String, String)] = [
        ("https://localhost:8443/", "localhost:8443)/"),
        ("https://localhost:8443/a/B.html?z=1&a=2", "localhost:8443)/a/b.html?a=2&z=1"),
        ("https://127.0.0.1:443/x/", "1,0,0,127)/x"),
        ("https://www.example.com/%7Efoo/caf%C3%A9?Q=A%20b", "com,example)/~foo/caf%c3%a9?q=a%20b"),
        ("http://example.com:80/a/./b/../c//d", "com,example)/a/c/d"),
        ("https://www2.Example.COM/Index.HTML#frag", "com,example)/index.html"),
        ("https://example.com/search?jsessionid=0123456789abcdef0123456789ABCDEF&q=1", "com,example)/search?q=1"),
        ("https://example.com/a?b=&a", "com,example)/a?a&b="),
        ("https://example.com/?", "com,example)/"),
        ("https://example.com", "com,example)/"),
        ("https://[::1]:8443/a", "::1:8443)/a"),
        ("https://example.com/x%2541y", "com,example)/xay"),
        ("https://example.com/img/caf%C3%A9.png", "com,example)/img/caf%c3%a9.png"),
        ("https://example.com/a b", "com,example)/a%20b"),
        ("https://sub.example.co.uk:8443/p?x=%26&y=2", "uk,co,example,sub:8443)/p?&x=&y=2"),
        ("https://example.com/%E2%82%AC?%E2%82%AC=1", "com,example)/%e2%82%ac?%e2%82%ac=1"),
    ]

    @Test(arguments: cases)
    func keys(url: String, expected: String) {
        #expect(SURT.key(url) == expected)
    }

    /// The one-pass path for plain URLs gives the full path's key, or declines.
    @Test(arguments: cases.map(\.0) + [
        "https://localhost:8443/docs/Guide/", "https://a.example/x?b=2&a=1", "https://a.example:443/", "http://a.example:8080/p?",
        "https://a.example/./x", "https://a.example//x", "https://a.example/x/..", "https://a.example/a.aspx", "https://a..b/x",
        "https://www.a.example/", "https://1.2.3.4/", "https://a.example/?sid=1", "https://a.example", "https://a.example/p?q#f",
        "https://127.0.0.1:44243/docs/a.html", "https://10.0.0.255/", "https://01.2.3.4/", "https://256.1.1.1/", "https://1.2.3/",
    ])
    func thePlainPathAgreesWithTheFullOne(url: String) {
        if let quick = SURT.plainKey(url) { #expect(quick == SURT.fullKey(url), "\(url)") }
    }

    /// The same and more, against the package itself.
    @Test func agreesWithTheSurtPackage() throws {
        let urls = Self.cases.map(\.0) + [
            "https://localhost:8443/docs/guide/", "https://localhost:8443/search?q=a&b=c", "https://localhost:8443/x%5Ey.png",
            "https://localhost:8443/a/%2e%2e/b", "https://10.0.0.1:8443/", "https://cdn.example.com/s.css?v=1&v=0",
            "https://localhost:8443/sid?sid=0123456789abcdef0123456789abcdef", "https://localhost:8443/%zz/a%",
        ]
        let python = try PythonTools.tool("python")
        let script = "import surt,sys,json\nfor u in json.load(sys.stdin): print(surt.surt(u))"
        let result = CommandRunner(executable: python).run(["-c", script], stdin: try JSONSerialization.data(withJSONObject: urls))
        #expect(result.exitCode == 0, "\(result)")
        let theirs = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(theirs.count == urls.count)
        for (url, key) in zip(urls, theirs) {
            #expect(SURT.key(url) == key, "\(url)")
        }
    }
}
