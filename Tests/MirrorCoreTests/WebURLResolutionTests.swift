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

/// The shortcut for plain paths (``WebURL/resolvingPlainPath(_:maximumLength:)``) answers only
/// what the general resolution answers, and declines everything else.
@Suite struct PlainPathResolutionTests {
    static let bases = [
        "https://site.test/docs/s01/t02/p00704.html", "https://site.test/a/b/", "https://site.test/",
        "https://site.test/c.html?x=1#f", "http://site.test:8080/a/b", "https://[::1]/x/y/", "https://site.test/a%20b/c",
    ]
    static let tokens = [
        "a", "b2", "x.html", "-", "_", "~", ".", "..", "...", "/", "./", "../", "//", "%41", "%2e", "?q", "#f", ":",
        "\\", " ", "\t", "é", "A", "@", ";", "s04/", "t02/",
    ]

    /// A fixed-seed generator (xorshift64*), so that a failure can be reproduced.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    @Test func agreesWithTheGeneralWayOnGeneratedReferences() throws {
        var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var answered = 0
        for text in Self.bases {
            let base = try #require(WebURL(text))
            for _ in 0..<4_000 {
                let count = Int.random(in: 1...8, using: &generator)
                let reference = (0..<count).map { _ in Self.tokens.randomElement(using: &generator)! }.joined()
                guard let plain = base.resolvingPlainPath(reference, maximumLength: WebURL.defaultMaximumLength) else { continue }
                answered += 1
                let full = try? base.resolvingInFull(reference, maximumLength: WebURL.defaultMaximumLength)
                #expect(plain.string == full?.string, "\(reference) against \(text)")
                #expect(plain == full)
            }
        }
        // The shortcut is taken often enough for the comparison to mean something.
        #expect(answered > 3_000, "answered \(answered)")
    }

    @Test(arguments: [
        ("p00705.html", "https://site.test/docs/s01/t02/p00705.html"),
        ("../../s04/t02/p00865.html", "https://site.test/docs/s04/t02/p00865.html"),
        ("../../../css/main.css", "https://site.test/css/main.css"),
        ("../../../../../../up.png", "https://site.test/up.png"),
        ("/favicon.ico", "https://site.test/favicon.ico"),
        ("./", "https://site.test/docs/s01/t02/"),
        ("../../../", "https://site.test/"),
        ("sub/", "https://site.test/docs/s01/t02/sub/"),
        ("a...b/.x/x.", "https://site.test/docs/s01/t02/a...b/.x/x."),
    ])
    func plainPaths(reference: String, expected: String) throws {
        let base = try #require(WebURL(Self.bases[0]))
        #expect(base.resolvingPlainPath(reference, maximumLength: WebURL.defaultMaximumLength)?.string == expected)
        #expect(base.resolve(reference)?.string == expected)
    }

    @Test(arguments: [
        "a//b", ".//x", "//cdn.test/x", "a/./b", "a/../b", "x/.", "x/..", ".", "..", "?q", "#f", "a?q", "%41",
        "a\\b", "a b", "é.html", "http:x", "",
    ])
    func otherReferencesTakeTheGeneralWay(reference: String) throws {
        let base = try #require(WebURL(Self.bases[0]))
        #expect(base.resolvingPlainPath(reference, maximumLength: WebURL.defaultMaximumLength) == nil)
    }

    /// Past the length limit the shortcut declines, and the general way reports the error.
    @Test func tooLongResultsTakeTheGeneralWay() throws {
        let base = try #require(WebURL(Self.bases[0]))  // 17 bytes of origin, a 14-byte folder
        let reference = String(repeating: "g", count: 20)
        #expect(base.resolvingPlainPath(reference, maximumLength: 51)?.string == "https://site.test/docs/s01/t02/" + reference)
        #expect(base.resolvingPlainPath(reference, maximumLength: 50) == nil)
        #expect(base.resolvingPlainPath(reference, maximumLength: 19) == nil)
        #expect(throws: WebURL.ParseError.self) { try base.resolving(reference, maximumLength: 50) }
    }
}
