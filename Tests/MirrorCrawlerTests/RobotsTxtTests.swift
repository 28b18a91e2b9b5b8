import Testing
@testable import MirrorCrawler

@Suite("robots.txt (RFC 9309)")
struct RobotsTxtTests {
    /// RFC 9309 §5.1, "Simple Example".
    static let rfcSimple = """
        User-Agent: *
        Disallow: *.gif$
        Disallow: /example/
        Allow: /publications/

        User-Agent: foobot
        Disallow:/
        Allow:/example/page.html
        Allow:/example/allowed.gif

        User-Agent: barbot
        User-Agent: bazbot
        Disallow: /example/page.html

        User-Agent: quxbot

        EOF
        """

    /// RFC 9309 §5.2, "Longest Match".
    static let rfcLongest = """
        User-Agent: foobot
        Allow: /example/page/
        Disallow: /example/page/disallowed.gif
        """

    static func robots(_ text: String) -> RobotsTxt { RobotsTxt.parse(Array(text.utf8)) }

    @Test("RFC 9309 §5.1 simple example", arguments: [
        ("foobot", "/example/page.html", true),
        ("foobot", "/example/allowed.gif", true),
        ("foobot", "/example/disallowed.gif", false),
        ("foobot", "/", false),
        ("FooBot/2.1 (+https://foo.example)", "/other", false),
        ("barbot", "/example/page.html", false),
        ("barbot", "/example/other.html", true),
        ("barbot", "/x.gif", true),
        ("bazbot", "/example/page.html", false),
        ("quxbot", "/example/page.html", true),
        ("quxbot", "/x.gif", true),
        ("otherbot", "/x.gif", false),
        ("otherbot", "/a/b/c.gif", false),
        ("otherbot", "/x.gif?size=2", true),
        ("otherbot", "/example/", false),
        ("otherbot", "/example/deep/page", false),
        ("otherbot", "/publications/x", true),
        ("otherbot", "/", true),
        ("otherbot", "/robots.txt", true),
    ])
    func rfcSimpleExample(agent: String, path: String, allowed: Bool) {
        #expect(Self.robots(Self.rfcSimple).isAllowed(path, userAgent: agent) == allowed)
    }

    @Test("RFC 9309 §5.2 longest match", arguments: [
        ("/example/page/", true),
        ("/example/page/other.gif", true),
        ("/example/page/disallowed.gif", false),
        ("/example/page/disallowed.gif.bak", false),
        ("/example/", true),
    ])
    func rfcLongestMatch(path: String, allowed: Bool) {
        #expect(Self.robots(Self.rfcLongest).isAllowed(path, userAgent: "foobot") == allowed)
    }

    /// RFC 9309 §2.2.2 percent-encoding table, and the special characters `*` and `$`.
    @Test("percent-encoding and wildcards", arguments: [
        ("Disallow: /foo/bar?baz=quz", "/foo/bar?baz=quz", false),
        ("Disallow: /foo/bar/\u{30C4}", "/foo/bar/%E3%83%84", false),
        ("Disallow: /foo/bar/%E3%83%84", "/foo/bar/%e3%83%84", false),
        ("Disallow: /foo/bar/%E3%83%84", "/foo/bar/\u{30C4}", false),
        ("Disallow: /foo/bar/%62%61%7A", "/foo/bar/baz", false),
        ("Disallow: /foo/bar/baz", "/foo/bar/%62%61%7A", false),
        ("Disallow: /a%2Fb", "/a/b", true),
        ("Disallow: /a%2fb", "/a%2Fb", false),
        ("Disallow: /this/path/exactly$", "/this/path/exactly", false),
        ("Disallow: /this/path/exactly$", "/this/path/exactly/more", true),
        ("Disallow: /this/*/exactly", "/this/a/b/exactly", false),
        ("Disallow: /this/*/exactly", "/this/exactly", true),
        ("Disallow: /*a*b$", "/xaaab", false),
        ("Disallow: /*a*b$", "/xab/c", true),
        ("Disallow: /*.php", "/index.php?x=1", false),
        ("Disallow: /**.php$", "/a/index.php", false),
        ("Disallow: /*", "/anything", false),
        ("Disallow: *", "/anything", false),
        ("Disallow: /private", "/private-stuff", false),
        ("Disallow: /private", "/Private", true),
        ("Disallow: /fish$", "/fish?x", true),
        ("Disallow: /a$b", "/a$b", false),
        ("Disallow: /a$b", "/ab", true),
    ])
    func patterns(rule: String, path: String, allowed: Bool) {
        let robots = Self.robots("User-agent: *\n" + rule + "\n")
        #expect(robots.isAllowed(path, userAgent: "mtls-mirror") == allowed, "\(rule) vs \(path)")
    }

    @Test("precedence: longest match, Allow wins ties", arguments: [
        ("Allow: /p\nDisallow: /p", "/p", true),
        ("Disallow: /p\nAllow: /p", "/page", true),
        ("Allow: /a*\nDisallow: /ab", "/abc", true),
        ("Allow: /a\nDisallow: /ab", "/abc", false),
        ("Disallow: /\nAllow: /$", "/", true),
        ("Disallow: /\nAllow: /$", "/x", false),
        ("Disallow: /folder/\nAllow: /folder/page", "/folder/page.html", true),
    ])
    func precedence(rules: String, path: String, allowed: Bool) {
        let robots = Self.robots("User-agent: *\n" + rules + "\n")
        #expect(robots.isAllowed(path, userAgent: "mtls-mirror") == allowed)
    }

    @Test("user agents: product token, case-insensitive, groups combined, * fallback")
    func userAgents() {
        let robots = Self.robots("""
            User-agent: *
            Disallow: /all

            User-agent: MTLS-Mirror/9
            Disallow: /one

            User-agent: other
            Disallow: /two

            user-agent: mtls-mirror
            Disallow: /three
            """)
        let agent = "mtls-mirror/1.0 (+https://example.com/bot)"
        #expect(!robots.isAllowed("/one", userAgent: agent))
        #expect(!robots.isAllowed("/three", userAgent: agent))
        #expect(robots.isAllowed("/two", userAgent: agent))
        #expect(robots.isAllowed("/all", userAgent: agent))
        #expect(!robots.isAllowed("/all", userAgent: "somebot"))
        #expect(robots.isAllowed("/one", userAgent: "somebot"))
        #expect(!robots.isAllowed("/all", userAgent: ""))
        #expect(robots.isAllowed("/one", userAgent: "mtls-mirrorx"))
    }

    @Test("garbage, comments, line ends, BOM and rules outside groups")
    func robustness() {
        let text = "\u{FEFF}Disallow: /before-any-group\r\n<html><body>\r\nfoo bar baz\r:::\rUser-agent: * # all\r\n"
            + "Disallow: /private # the secret part\nNoindex: /ignored\nDisallow:\n"
        let robots = RobotsTxt.parse(Array(text.utf8))
        #expect(!robots.isAllowed("/private", userAgent: "x"))
        #expect(!robots.isAllowed("/private/deep", userAgent: "x"))
        #expect(robots.isAllowed("/before-any-group", userAgent: "x"))
        #expect(robots.isAllowed("/ignored", userAgent: "x"))
        #expect(robots.isAllowed("/", userAgent: "x"))
    }

    @Test("an empty Disallow allows everything; allowAll and an empty file allow everything")
    func allowEverything() {
        #expect(Self.robots("User-agent: *\nDisallow:\n").isAllowed("/x", userAgent: "a"))
        #expect(RobotsTxt.allowAll.isAllowed("/x", userAgent: "a"))
        #expect(RobotsTxt.parse([]).isAllowed("/x", userAgent: "a"))
        #expect(RobotsTxt.parse(Array("\u{00}\u{FF}\u{01}garbage".utf8)).isAllowed("/x", userAgent: "a"))
        #expect(!Self.robots("User-agent: *\nDisallow: /\n").isAllowed("/x", userAgent: "a"))
        #expect(Self.robots("User-agent: *\nDisallow: /\n").isAllowed("/robots.txt", userAgent: "a"))
        #expect(!Self.robots("User-agent: *\nDisallow: /\n").isAllowed("", userAgent: "a"))
    }

    @Test("crawl-delay and sitemaps")
    func crawlDelayAndSitemaps() {
        let robots = Self.robots("""
            Sitemap: https://example.com/sitemap.xml
            User-agent: slowbot
            Crawl-delay: 2.5
            Disallow: /x

            User-agent: *
            Crawl-delay: ten
            Disallow: /y

            User-agent: fastbot
            Crawl-delay: -1
            """)
        #expect(robots.crawlDelay(userAgent: "slowbot") == 2.5)
        #expect(robots.crawlDelay(userAgent: "otherbot") == nil)
        #expect(robots.crawlDelay(userAgent: "fastbot") == nil)
        #expect(robots.sitemaps == ["https://example.com/sitemap.xml"])
        #expect(Self.robots("User-agent: *\nCrawl-delay: 3\n").crawlDelay(userAgent: "a") == 3)
    }

    @Test("only the first 500 KiB are parsed")
    func sizeCap() {
        var text = "User-agent: *\nDisallow: /early\n"
        let filler = "# " + String(repeating: "x", count: 1021) + "\n"
        while text.utf8.count < RobotsTxt.maximumSize - 2048 { text += filler }
        text += "Disallow: /inside\n"
        while text.utf8.count < RobotsTxt.maximumSize + 10 { text += filler }
        text += "Disallow: /late\n"
        let robots = Self.robots(text)
        #expect(!robots.isAllowed("/early", userAgent: "a"))
        #expect(!robots.isAllowed("/inside", userAgent: "a"))
        #expect(robots.isAllowed("/late", userAgent: "a"))
    }

    @Test("a pathological pattern does not blow up")
    func pathologicalPattern() {
        let robots = Self.robots("User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*b$\n")
        let path = "/" + String(repeating: "a", count: 5000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(robots.isAllowed(path, userAgent: "x"))
            #expect(!robots.isAllowed(path + "b", userAgent: "x"))
        }
        #expect(elapsed < .seconds(5))
    }
}
