import Testing
@testable import MirrorCore

@Suite struct WebURLTests {
    /// Input → normalised serialisation.
    static let normalisation: [(String, String)] = [
        ("HTTP://Example.COM/", "http://example.com/"),
        ("http://example.com", "http://example.com/"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com:80/a", "https://example.com:80/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),
        ("http://example.com:/a", "http://example.com/a"),
        ("http://example.com:08080/", "http://example.com:8080/"),
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),
        ("http://example.com/a/%2e/b/%2E%2e/c", "http://example.com/a/c"),
        ("http://example.com/a/.%2E/b", "http://example.com/b"),
        ("http://example.com/../../x", "http://example.com/x"),
        ("http://example.com/a/..", "http://example.com/"),
        ("http://example.com/a/.", "http://example.com/a/"),
        ("http://example.com/%7euser/%41%42", "http://example.com/~user/AB"),
        ("http://example.com/a%2fb", "http://example.com/a%2Fb"),
        ("http://example.com/a%3ab", "http://example.com/a%3Ab"),
        ("http://example.com/a b", "http://example.com/a%20b"),
        ("http://example.com/\u{E9}t\u{E9}", "http://example.com/%C3%A9t%C3%A9"),
        ("http://example.com/\"<>`{}|^", "http://example.com/%22%3C%3E%60%7B%7D%7C%5E"),
        ("http://example.com/100%", "http://example.com/100%25"),
        ("http://example.com/%zz", "http://example.com/%25zz"),
        ("http://example.com/a?b=%7e&a=1&b=2", "http://example.com/a?b=~&a=1&b=2"),
        ("http://example.com/a?q=a b", "http://example.com/a?q=a%20b"),
        ("http://example.com/a?q=/?:@", "http://example.com/a?q=/?:@"),
        ("http://example.com/a?", "http://example.com/a"),
        ("http://example.com/a#", "http://example.com/a"),
        ("http://example.com/a#x#y", "http://example.com/a#x%23y"),
        ("http://example.com/a?q#f", "http://example.com/a?q#f"),
        ("http:\\\\example.com\\a\\b", "http://example.com/a/b"),
        ("http:example.com/a", "http://example.com/a"),
        ("http:////example.com/a", "http://example.com/a"),
        ("http:///a", "http://a/"),
        ("  \t http://example.com/a \n ", "http://example.com/a"),
        ("ht\ntp://exa\tmple.com/a\r\nb", "http://example.com/ab"),
        ("http://[::1]:8080/", "http://[::1]:8080/"),
        ("http://[2001:DB8::A]/", "http://[2001:db8::a]/"),
        ("http://ex%41mple.com/", "http://example.com/"),
        ("http://B\u{FC}cher.example/", "http://b\u{FC}cher.example/"),
        ("http://example.com/a//b", "http://example.com/a//b"),
        ("http://example.com/;p=1", "http://example.com/;p=1"),
    ]

    @Test(arguments: normalisation)
    func normalises(input: String, expected: String) throws {
        let url = try WebURL.parse(input)
        #expect(url.string == expected)
        // Normalisation is idempotent.
        #expect(try WebURL.parse(url.string) == url)
    }

    /// Input → the error it must be rejected with.
    static let rejections: [(String, WebURL.ParseError)] = [
        ("", .missingScheme),
        ("example.com/a", .missingScheme),
        ("/relative", .missingScheme),
        ("ftp://example.com/", .unsupportedScheme("ftp")),
        ("javascript:alert(1)", .unsupportedScheme("javascript")),
        ("file:///etc/passwd", .unsupportedScheme("file")),
        ("http://", .emptyHost),
        ("http://?x", .emptyHost),
        ("http://#f", .emptyHost),
        ("http://:80/", .emptyHost),
        ("http://example.com:65536/", .invalidPort("65536")),
        ("http://example.com:-1/", .invalidPort("-1")),
        ("http://example.com:8o/", .invalidPort("8o")),
        ("http://example.com:123456/", .invalidPort("123456")),
        ("http://exa mple.com/", .invalidHost("exa mple.com")),
        ("http://exa%20mple.com/", .invalidHost("exa%20mple.com")),
        ("http://exa%00mple.com/", .invalidHost("exa%00mple.com")),
        ("http://exa<mple.com/", .invalidHost("exa<mple.com")),
        ("http://../", .invalidHost("..")),
        ("http://[::1/", .invalidHost("[::1")),
        ("http://[zz::1]/", .invalidHost("[zz::1]")),
        ("http://[::1]x/", .invalidHost("[::1]x")),
        ("http://user:secret@example.com/", .userInfoNotSupported(host: "example.com")),
        ("http://example.com/a\u{0}b", .controlCharacter(offset: 20)),
        ("http://example.com/a\u{1}b", .controlCharacter(offset: 20)),
        ("http://example.com/a\u{7F}b", .controlCharacter(offset: 20)),
    ]

    @Test(arguments: rejections)
    func rejects(input: String, expected: WebURL.ParseError) {
        #expect(throws: expected) { try WebURL.parse(input) }
        #expect(WebURL(input) == nil)
    }

    @Test func rejectsOverLongURLsWithConfigurableLimit() throws {
        let long = "http://example.com/" + String(repeating: "a", count: 8200)
        #expect(throws: WebURL.ParseError.tooLong(length: long.utf8.count, limit: 8192)) {
            try WebURL.parse(long)
        }
        #expect(try WebURL.parse(long, maximumLength: 9000).path.count == 8201)
        #expect(throws: WebURL.ParseError.tooLong(length: 22, limit: 21)) {
            try WebURL.parse("http://example.com/abc", maximumLength: 21)
        }
    }

    @Test func componentsAndDerivedForms() throws {
        let url = try WebURL.parse("HTTPS://Sub.Example.org:8443/a/b%20c?x=1&y=2#Frag")
        #expect(url.scheme == "https")
        #expect(url.host == "sub.example.org")
        #expect(url.port == 8443)
        #expect(url.effectivePort == 8443)
        #expect(url.path == "/a/b%20c")
        #expect(url.query == "x=1&y=2")
        #expect(url.fragment == "Frag")
        #expect(url.origin == "https://sub.example.org:8443")
        #expect(url.requestTarget == "/a/b%20c?x=1&y=2")
        #expect(url.withoutFragment.string == "https://sub.example.org:8443/a/b%20c?x=1&y=2")
        #expect(url.withoutFragment != url)
        #expect("\(url)" == url.string)

        let plain = try WebURL.parse("http://example.com")
        #expect(plain.port == nil)
        #expect(plain.effectivePort == 80)
        #expect(plain.requestTarget == "/")
        #expect(plain.withoutFragment == plain)
    }

    @Test func equivalentSpellingsAreEqualAndHashTheSame() throws {
        let spellings = [
            "http://EXAMPLE.com:80/%7Ea/./b/../c",
            "http://example.com/~a/c",
            "http:\\\\example.com\\~a\\c",
            "http://example.com/%7ea/%63",
        ]
        let urls = try spellings.map { try WebURL.parse($0) }
        #expect(Set(urls).count == 1)
    }

    /// The hash is computed once per URL (``WebURL`` keys many tables of a crawl): URLs parsed
    /// apart still find each other as keys, and distinct URLs, fragment or not, stay apart.
    @Test func urlsParsedApartAreTheSameKeyAndDistinctOnesStayApart() throws {
        var numbers: [WebURL: Int] = [:]
        for i in 0..<2_000 {
            numbers[try WebURL.parse("https://site.test/d\(i % 7)/p\(i).html?q=\(i % 3)")] = i
        }
        #expect(numbers.count == 2_000)
        for i in stride(from: 0, to: 2_000, by: 37) {
            let again = try WebURL.parse("HTTPS://SITE.test:443/d\(i % 7)/./p\(i).html?q=\(i % 3)")
            #expect(numbers[again] == i)
        }
        let anchored = try WebURL.parse("https://site.test/d0/p0.html?q=0#top")
        #expect(numbers[anchored] == nil)
        #expect(numbers[anchored.withoutFragment] == 0)
        #expect(anchored != anchored.withoutFragment)
    }

    /// Lower-case ASCII hosts skip the general normalisation; both ways must agree (value or
    /// error) on hosts with and without what the general way handles.
    @Test func plainHostsNormaliseAsTheGeneralWay() {
        let pieces = ["a", "example", ".", "com", "127", "0", "1", "-", "_", "Ex", "%41", "%2e", "%C3%A9", "é", "[::1]", "[",
                      "]", ":", "@", "%", "%zz", "x y", "\u{7F}", "~", "!"]
        var generator = SystemRandomNumberGenerator()
        var plain = 0
        for _ in 0..<20_000 {
            let host = (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(host.utf8)[...]
            let fast = Result { () throws(WebURL.ParseError) in try WebURL.normalizeHost(bytes) }
            let general = Result { () throws(WebURL.ParseError) in try WebURL.normalizeHostGenerally(bytes) }
            switch (fast, general) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(host)")
                if a == host { plain += 1 }
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "\(host)")
            default:
                Issue.record("\(host): \(fast) against \(general)")
            }
        }
        #expect(plain > 1_000)
    }
}
