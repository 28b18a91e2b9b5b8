import Testing
@testable import MirrorCore

@Suite struct WebURLResolutionTests {
    static let base = WebURL("http://a/b/c/d;p?q")

    /// RFC 3986 §5.4.1 normal examples. `g:h` is not http(s), so it resolves to nil here.
    static let normalExamples: [(String, String?)] = [
        ("g:h", nil),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g/"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"),
        ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ]

    /// RFC 3986 §5.4.2 abnormal examples; `http:g` takes the backward-compatible reading.
    static let abnormalExamples: [(String, String?)] = [
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http://a/b/c/g"),
    ]

    /// Browser leniencies and the schemes that must not resolve.
    static let browserExamples: [(String, String?)] = [
        ("\\g", "http://a/g"),
        ("..\\g", "http://a/b/g"),
        ("\\\\evil.example/x", "http://evil.example/x"),
        ("/\\evil.example/x", "http://evil.example/x"),
        ("////evil.example/x", "http://evil.example/x"),
        ("  g  ", "http://a/b/c/g"),
        ("g\n/\th", "http://a/b/c/g/h"),
        ("%2e%2e/g", "http://a/b/g"),
        ("%2E/g", "http://a/b/c/g"),
        (".%2e/.%2E/x", "http://a/x"),
        ("g?a b#c d", "http://a/b/c/g?a%20b#c%20d"),
        ("caf\u{E9}", "http://a/b/c/caf%C3%A9"),
        ("https://other.example:443/x", "https://other.example/x"),
        ("HTTPS://Other.Example/", "https://other.example/"),
        ("https:x", "https://x/"),
        ("http:/g", "http://a/g"),
        ("http://g", "http://g/"),
        ("mailto:someone@example.com", nil),
        ("javascript:alert(1)", nil),
        ("  JaVa\tScRiPt:alert(1)", nil),
        ("data:text/html,hi", nil),
        ("file:///etc/passwd", nil),
        ("ftp://a/x", nil),
        ("//", nil),
        ("//user:pw@host/", nil),
        ("g\u{0}h", nil),
    ]

    @Test(arguments: normalExamples)
    func rfc3986NormalExamples(reference: String, expected: String?) throws {
        let base = try #require(Self.base)
        #expect(base.resolve(reference)?.string == expected)
    }

    @Test(arguments: abnormalExamples)
    func rfc3986AbnormalExamples(reference: String, expected: String?) throws {
        let base = try #require(Self.base)
        #expect(base.resolve(reference)?.string == expected)
    }

    @Test(arguments: browserExamples)
    func browserLeniencyAndRefusedSchemes(reference: String, expected: String?) throws {
        let base = try #require(Self.base)
        #expect(base.resolve(reference)?.string == expected)
    }

    @Test(arguments: [
        ("mailto:x@y", "mailto"),
        (" JavaScript:void(0)", "javascript"),
        ("java\nscript:x", "javascript"),
        ("DATA:,x", "data"),
        ("https://a/", "https"),
        ("g", nil),
        ("./g:h", nil),
        ("/a:b", nil),
        ("?x:y", nil),
        ("1abc:x", nil),
    ] as [(String, String?)])
    func schemeOfReference(reference: String, expected: String?) {
        #expect(WebURL.scheme(of: reference) == expected)
    }

    @Test func unsupportedSchemeIsReportedAsSuch() throws {
        let base = try #require(Self.base)
        #expect(throws: WebURL.ParseError.unsupportedScheme("mailto")) {
            try base.resolving("mailto:a@b")
        }
        #expect(throws: WebURL.ParseError.tooLong(length: 20, limit: 10)) {
            try base.resolving(String(repeating: "g", count: 20), maximumLength: 10)
        }
    }

    @Test func resolvingAgainstBaseWithPortAndQueryKeepsOrigin() throws {
        let base = try #require(WebURL("https://h.example:8443/dir/page?x=1#top"))
        #expect(base.resolve("other")?.string == "https://h.example:8443/dir/other")
        #expect(base.resolve("#f")?.string == "https://h.example:8443/dir/page?x=1#f")
        #expect(base.resolve("")?.string == "https://h.example:8443/dir/page?x=1")
        #expect(base.resolve("//cdn.example/a.js")?.string == "https://cdn.example/a.js")
    }
}
