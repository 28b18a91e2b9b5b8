import MirrorCore
import Testing
@testable import MirrorCrawler

/// The expected decision, in a form a table can hold.
enum Expected: String, Sendable {
    case page, requisite, outOfScope, excluded, tooDeep

    init(_ decision: ScopeDecision) {
        switch decision {
        case .page: self = .page
        case .requisite: self = .requisite
        case .outOfScope: self = .outOfScope
        case .excluded: self = .excluded
        case .tooDeep: self = .tooDeep
        }
    }
}

@Suite("CrawlScope decisions")
struct CrawlScopeTests {
    static let originScope = ScopeConfiguration(
        maxDepth: 2, requisiteHosts: ["cdn.example.net", "*.static.example.org", "assets.example.com:8443"])

    @Test("origin, depth and requisite hosts", arguments: [
        ("https://example.com/docs/a.html", false, 1, Expected.page),
        ("https://example.com/other.html", false, 2, .page),
        ("https://EXAMPLE.com:443/x", false, 1, .page),
        ("http://example.com/docs/a.html", false, 1, .outOfScope),
        ("https://example.com:8443/docs/a.html", false, 1, .outOfScope),
        ("https://www.example.com/", false, 1, .outOfScope),
        ("https://example.com/docs/a.html", false, 3, .tooDeep),
        ("https://example.com/img.png", true, 3, .requisite),
        ("https://example.com/img.png", true, 999, .requisite),
        ("http://example.com/img.png", true, 1, .outOfScope),
        ("https://cdn.example.net/lib.js", true, 1, .requisite),
        ("http://cdn.example.net:8080/lib.js", true, 1, .requisite),
        ("https://cdn.example.net/page.html", false, 1, .outOfScope),
        ("https://a.static.example.org/x.css", true, 1, .requisite),
        ("https://b.a.static.example.org/x.css", true, 1, .requisite),
        ("https://static.example.org/x.css", true, 1, .outOfScope),
        ("https://evilstatic.example.org/x.css", true, 1, .outOfScope),
        ("https://assets.example.com:8443/x.png", true, 1, .requisite),
        ("https://assets.example.com/x.png", true, 1, .outOfScope),
        ("https://other.test/x.png", true, 1, .outOfScope),
    ])
    func originRules(url: String, isRequisite: Bool, depth: Int, expected: Expected) throws {
        let scope = try CrawlScope(
            startURLs: [webURL("https://example.com/docs/index.html")], configuration: Self.originScope)
        let decision = scope.classify(try webURL(url), isRequisite: isRequisite, depth: depth)
        #expect(Expected(decision) == expected, "\(url) → \(decision)")
    }

    @Test("no-parent, include and exclude rules (pages only)", arguments: [
        ("/docs/guide/b.html", false, Expected.page),
        ("/docs/guide", false, .page),
        ("/docs/guide/sub/c.html", false, .page),
        ("/docs/guide/a?print=2", false, .page),
        ("/docs/other.html", false, .excluded),
        ("/docs/guidex.html", false, .excluded),
        ("/", false, .excluded),
        ("/docs/guide/private/x", false, .excluded),
        ("/docs/guide/a?print=1", false, .excluded),
        ("/img/logo.png", true, .requisite),
        ("/docs/guide/private/i.png", true, .requisite),
    ])
    func noParentAndRules(path: String, isRequisite: Bool, expected: Expected) throws {
        let configuration = ScopeConfiguration(
            includes: [try PathRule.parse("/docs/"), try PathRule.parse("regex:\\.pdf$")],
            excludes: [try PathRule.parse("/docs/guide/private/"), try PathRule.parse("regex:^/docs/.*\\?print=1")],
            noParent: true)
        let scope = try CrawlScope(
            startURLs: [webURL("https://example.com/docs/guide/intro.html")], configuration: configuration)
        let decision = scope.classify(try webURL("https://example.com" + path), isRequisite: isRequisite, depth: 1)
        #expect(Expected(decision) == expected, "\(path) → \(decision)")
    }

    @Test("include rules: a page must match one", arguments: [
        ("/docs/x", Expected.page),
        ("/files/report.pdf", .page),
        ("/files/report.pdf?download=1", .excluded),
        ("/blog/a.html", .excluded),
        ("/doc", .excluded),
    ])
    func includes(path: String, expected: Expected) throws {
        let configuration = ScopeConfiguration(
            includes: [try PathRule.parse("/docs/"), try PathRule.parse("regex:\\.pdf$")])
        let scope = try CrawlScope(startURLs: [webURL("https://example.com/")], configuration: configuration)
        let decision = scope.classify(try webURL("https://example.com" + path), isRequisite: false, depth: 1)
        #expect(Expected(decision) == expected)
        if case .excluded(let reason) = decision {
            #expect(reason.contains("include"))
        }
    }

    @Test("exclude reasons name the rule")
    func excludeReason() throws {
        let configuration = ScopeConfiguration(excludes: [.regex("^/private")])
        let scope = try CrawlScope(startURLs: [webURL("https://example.com/")], configuration: configuration)
        #expect(scope.classify(try webURL("https://example.com/private/a"), isRequisite: false, depth: 1)
            == .excluded(reason: "matches exclude rule regex:^/private"))
        #expect(scope.classify(try webURL("https://example.com/public"), isRequisite: false, depth: 1) == .page)
    }

    @Test("maxDepth 0 keeps only the start pages, but not their requisites' origin check")
    func depthZero() throws {
        let scope = try CrawlScope(
            startURLs: [webURL("https://example.com/")], configuration: ScopeConfiguration(maxDepth: 0))
        #expect(scope.classify(try webURL("https://example.com/"), isRequisite: false, depth: 0) == .page)
        #expect(scope.classify(try webURL("https://example.com/a"), isRequisite: false, depth: 1) == .tooDeep)
        #expect(scope.classify(try webURL("https://example.com/a.css"), isRequisite: true, depth: 1) == .requisite)
    }

    @Test("several start URLs: each origin and each start directory counts")
    func severalStarts() throws {
        let scope = try CrawlScope(
            startURLs: [webURL("https://example.com/a/"), webURL("http://intranet.test:8080/b/x.html")],
            configuration: ScopeConfiguration(noParent: true))
        #expect(scope.isPrimaryOrigin(try webURL("https://example.com/zzz")))
        #expect(scope.isPrimaryOrigin(try webURL("http://intranet.test:8080/")))
        #expect(!scope.isPrimaryOrigin(try webURL("http://intranet.test/")))
        #expect(!scope.isPrimaryOrigin(try webURL("http://example.com/a/")))
        #expect(scope.classify(try webURL("https://example.com/a/1"), isRequisite: false, depth: 1) == .page)
        #expect(scope.classify(try webURL("http://intranet.test:8080/b/2"), isRequisite: false, depth: 1) == .page)
        // The other origin's start directory does not apply here.
        #expect(Expected(scope.classify(try webURL("https://example.com/b/2"), isRequisite: false, depth: 1))
            == .excluded)
    }
}

@Suite("Scope configuration errors and rule parsing")
struct ScopeConfigurationTests {
    @Test("PathRule.parse", arguments: [
        ("/docs/", PathRule.prefix("/docs/")),
        ("docs", .prefix("/docs")),
        ("regex:^/a/.*", .regex("^/a/.*")),
        ("regex:\\.pdf$", .regex("\\.pdf$")),
    ])
    func parseRule(text: String, expected: PathRule) throws {
        #expect(try PathRule.parse(text) == expected)
    }

    @Test("empty rules are refused", arguments: ["", "regex:"])
    func emptyRule(text: String) {
        #expect(throws: ScopeError.emptyPathRule(rule: text)) { try PathRule.parse(text) }
    }

    @Test("an invalid regex names its pattern")
    func invalidRegex() throws {
        let configuration = ScopeConfiguration(excludes: [.regex("([a-")])
        let start = try webURL("https://example.com/")
        do throws(ScopeError) {
            _ = try CrawlScope(startURLs: [start], configuration: configuration)
            Issue.record("an invalid regex was accepted")
        } catch {
            guard case .invalidRegex(let pattern, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(pattern == "([a-")
            #expect(!reason.isEmpty)
            #expect(error.category == .usage)
            #expect(error.summary.contains("([a-"))
        }
    }

    @Test("no start URL")
    func emptyStart() {
        #expect(throws: ScopeError.emptyStartList) {
            try CrawlScope(startURLs: [], configuration: ScopeConfiguration())
        }
    }

    @Test("invalid requisite host patterns", arguments: ["", "*.", "a/b", "host:99999", "host:abc", "host:", "a*b.com", "user@host"])
    func invalidHostPattern(pattern: String) throws {
        let start = try webURL("https://example.com/")
        #expect(throws: ScopeError.invalidHostPattern(pattern: pattern)) {
            try CrawlScope(startURLs: [start], configuration: ScopeConfiguration(requisiteHosts: [pattern]))
        }
    }

    @Test("valid requisite host patterns", arguments: ["cdn.example.net", "CDN.Example.NET:8443", "*.example.org", "[::1]:8443", "[::1]"])
    func validHostPattern(pattern: String) throws {
        let start = try webURL("https://example.com/")
        _ = try CrawlScope(startURLs: [start], configuration: ScopeConfiguration(requisiteHosts: [pattern]))
    }

    @Test("host patterns match case-insensitively and by effective port")
    func hostPatternMatching() throws {
        let scope = try CrawlScope(
            startURLs: [webURL("https://example.com/")],
            configuration: ScopeConfiguration(requisiteHosts: ["CDN.Example.NET:443", "[::1]:8443"]))
        #expect(scope.classify(try webURL("https://cdn.example.net/x.js"), isRequisite: true, depth: 0) == .requisite)
        #expect(Expected(scope.classify(try webURL("http://cdn.example.net/x.js"), isRequisite: true, depth: 0))
            == .outOfScope)
        #expect(scope.classify(try webURL("https://[::1]:8443/x.js"), isRequisite: true, depth: 0) == .requisite)
    }
}
