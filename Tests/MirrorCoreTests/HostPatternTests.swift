import MirrorCore
import Testing

/// The one host pattern that decides identity scope, trust-table lookup and requisite hosts.
@Suite("Host patterns")
struct HostPatternTests {
    @Test("Punycode (RFC 3492) of known labels", arguments: [
        ("bücher", "bcher-kva"), ("münchen", "mnchen-3ya"), ("例え", "r8jz45g"), ("ü", "tda"),
        ("παράδειγμα", "hxajbheg2az3al"), ("правительство", "80aealotwbjpid2k"), ("straße", "strae-oqa"),
    ])
    func punycode(label: String, encoded: String) {
        #expect(HostName.canonical(label + ".example") == "xn--" + encoded + ".example")
    }

    @Test("canonical host names", arguments: [
        ("Example.COM", "example.com"), ("example.com.", "example.com"), ("[::1]", "::1"), ("[2001:DB8::1]", "2001:db8::1"),
        ("Bücher.Example.", "xn--bcher-kva.example"), ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("10.0.0.1", "10.0.0.1"),
    ])
    func canonical(host: String, expected: String) {
        #expect(HostName.canonical(host) == expected)
    }

    @Test("patterns that parse, and how they print", arguments: [
        ("example.com", "example.com"), ("EXAMPLE.com.", "example.com"), ("example.com:8443", "example.com:8443"),
        ("*.example.com", "*.example.com"), ("*.example.com:443", "*.example.com:443"), ("10.1.2.3", "10.1.2.3"),
        ("10.1.2.3:8443", "10.1.2.3:8443"), ("[::1]", "[::1]"), ("[::1]:8443", "[::1]:8443"),
        ("bücher.example", "xn--bcher-kva.example"), ("*.Bücher.example", "*.xn--bcher-kva.example"),
        ("intranet_host.corp", "intranet_host.corp"), (" spaced.example ", "spaced.example"), ("::1", "[::1]"),
    ])
    func parses(text: String, printed: String) throws {
        #expect(try HostPattern(parsing: text).description == printed)
    }

    @Test("patterns that are refused", arguments: [
        "", "*.", ".", "https://example.com", "example.com/path", "user@example.com", "exa mple.com", "example.com:0",
        "example.com:65536", "example.com:", "example.com:http", "::1:", "[::1", "[::1]x", "[nothex]", "*.[::1]", "*.10.0.0.1",
        "a..b", "-", "-a.example", "a-.example", "*", "ex*ample.com", "example.com?x", String(repeating: "a", count: 64) + ".example",
    ])
    func refused(text: String) {
        #expect(throws: HostPattern.ParseError.self) { try HostPattern(parsing: text) }
    }

    @Test("ports are refused where not allowed")
    func portsRefusedWhereNotAllowed() throws {
        #expect(throws: HostPattern.ParseError.self) { try HostPattern(parsing: "example.com:443", allowPort: false) }
        #expect(try HostPattern(parsing: "example.com", allowPort: false).port == nil)
    }

    /// (pattern, host, port, matches)
    static let matchCases: [(String, String, Int, Bool)] = [
        ("example.com", "example.com", 443, true),
        ("example.com", "EXAMPLE.COM.", 8443, true),
        ("example.com", "www.example.com", 443, false),
        ("example.com", "badexample.com", 443, false),
        ("example.com:8443", "example.com", 8443, true),
        ("example.com:8443", "example.com", 443, false),
        ("*.example.com", "www.example.com", 443, true),
        ("*.example.com", "a.b.example.com", 443, true),
        ("*.example.com", "example.com", 443, false),
        ("*.example.com", "evilexample.com", 443, false),
        ("*.example.com", "www.example.com.evil.net", 443, false),
        ("*.example.com:8443", "www.example.com", 443, false),
        ("bücher.example", "xn--bcher-kva.example", 443, true),
        ("xn--bcher-kva.example", "BÜCHER.example", 443, true),
        ("[::1]", "[::1]", 443, true),
        ("[::1]", "::1", 443, true),
        ("[::1]:8443", "[0:0::1]", 8443, false),  // no IPv6 rewriting: the spelling WebURL gives
        ("127.0.0.1", "127.0.0.1", 443, true),
        ("127.0.0.1", "127.0.0.2", 443, false),
    ]

    @Test("matching: case, trailing dot, IDNA, ports, wildcards only below the domain", arguments: matchCases)
    func matching(pattern: String, host: String, port: Int, expected: Bool) throws {
        #expect(try HostPattern(parsing: pattern).matches(host: host, port: port) == expected, "\(pattern) ~ \(host):\(port)")
    }

    @Test("the table picks the most specific match")
    func tablePrecedence() throws {
        let table = HostPatternTable([
            (try HostPattern(parsing: "*.example.com"), "wide"),
            (try HostPattern(parsing: "*.intra.example.com"), "narrow"),
            (try HostPattern(parsing: "www.intra.example.com"), "exact"),
            (try HostPattern(parsing: "www.intra.example.com:8443"), "exact-port"),
            (try HostPattern(parsing: "*.example.com"), "wide-again"),  // a pattern given twice: the later wins
        ])
        #expect(table.value(forHost: "a.example.com") == "wide-again")
        #expect(table.value(forHost: "a.intra.example.com") == "narrow")
        #expect(table.value(forHost: "WWW.intra.example.com.") == "exact")
        #expect(table.value(forHost: "www.intra.example.com", port: 8443) == "exact-port")
        #expect(table.value(forHost: "www.intra.example.com", port: 443) == "exact")
        #expect(table.value(forHost: "example.com") == nil)
        #expect(table.patterns.count == 4)
    }
}
