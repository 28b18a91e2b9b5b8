import MirrorCore
import MirrorDocument
import Testing
@testable import MirrorCrawler

@Suite("LinkPlanner")
struct LinkPlannerTests {
    static let mirrored: [String: String] = [
        "https://example.com/docs/guide/": "docs/guide/index.html",
        "https://example.com/docs/guide/page": "docs/guide/page@.html",
        "https://example.com/img/logo.png": "img/logo.png",
        "https://example.com/a%20b.html": "a%20b.html",
        "https://cdn.example.net/lib.js": "_hosts/cdn.example.net/lib.js",
    ]

    static func reference(_ value: String, kind: Reference.Kind = .link, syntax: Reference.Syntax = .htmlAttribute(quote: .double)) -> Reference {
        Reference(kind: kind, element: "a", attribute: "href", value: value, span: 0..<value.utf8.count,
                  isRequisite: kind != .link, syntax: syntax)
    }

    static func plan(_ references: [Reference], base: String = "https://example.com/docs/guide/") throws -> LinkPlan {
        LinkPlanner.plan(
            references: references, documentPath: "docs/guide/index.html", baseURL: try webURL(base),
            localPath: { url in
                #expect(url.fragment == nil, "the lookup must get URLs without fragment")
                return mirrored[url.string]
            })
    }

    @Test("replacement for one reference", arguments: [
        ("page#sec", Reference.Kind.link, Optional("page@.html#sec")),
        ("page", .link, "page@.html"),
        ("./page?", .link, "page@.html"),
        ("../../img/logo.png", .image, nil),  // already leads to the local copy: left as written
        ("../guide/../../img/./logo.png", .image, nil),
        ("../../img/logo.png#x", .image, nil),
        ("../../img/logo.png?", .image, "../../img/logo.png"),
        ("../../img/%6Cogo.png", .image, "../../img/logo.png"),
        ("/img/logo.png", .image, "../../img/logo.png"),
        ("https://example.com/img/logo.png", .image, "../../img/logo.png"),
        ("HTTPS://EXAMPLE.COM:443/img/./logo.png#x", .image, "../../img/logo.png#x"),
        ("/a b.html", .link, "../../a%2520b.html"),
        ("https://cdn.example.net/lib.js", .script, "../../_hosts/cdn.example.net/lib.js"),
        ("//cdn.example.net/lib.js", .script, "../../_hosts/cdn.example.net/lib.js"),
        ("./", .link, "index.html"),
        ("./#top", .link, "index.html#top"),
        ("/unmirrored.html#f", .link, "https://example.com/unmirrored.html#f"),
        ("sub/x.html", .link, "https://example.com/docs/guide/sub/x.html"),
        ("?q=1", .link, "https://example.com/docs/guide/?q=1"),
        ("//other.test/a", .link, "https://other.test/a"),
        ("https:rel.html", .link, "https://example.com/docs/guide/rel.html"),
        ("https://other.test/x?y#z", .link, nil),
        ("#top", .link, nil),
        ("  #top", .link, nil),
        ("", .link, nil),
        ("   ", .link, nil),
        ("data:image/png;base64,iVBORw0KGgo=", .image, nil),
        ("javascript:void(0)", .link, nil),
        (" JavaScript:alert(1)", .link, nil),
        ("mailto:someone@example.com", .link, nil),
        ("tel:+441234", .link, nil),
        ("http://[bad/", .link, nil),
        ("https://user:pw@example.com/x", .link, nil),
    ])
    func single(value: String, kind: Reference.Kind, expected: String?) throws {
        let plan = try Self.plan([Self.reference(value, kind: kind)])
        #expect(plan.replacements[0] == expected, "\(value)")
    }

    /// Whether a value counts as written absolute (an unmirrored target is then left as written).
    @Test("a value is written absolute when scheme and // (or \\\\) lead it, tabs and newlines aside", arguments: [
        ("https://other.test/x", true),
        ("  https://other.test/x", true),
        ("\u{01}https://other.test/x", true),
        ("ht\ttps://other.test/x", true),
        ("ht\r\ntps://other.test/x", true),
        ("https:\n//other.test/x", true),
        ("https:/\r\n/other.test/x", true),
        ("HTTP://other.test/x", true),
        ("https:\\\\other.test\\x", true),
        ("https:/\\other.test/x", true),
        ("https:/other.test/x", false),
        ("https:other.test/x", false),
        ("https:/", false),
        ("//other.test/x", false),
        ("other.test/x", false),
    ])
    func writtenAbsolute(value: String, expected: Bool) throws {
        let target = try #require(LinkPlanner.target(of: value, baseURL: try webURL("https://example.com/docs/guide/")))
        guard case .url(_, let writtenAbsolute) = target else {
            Issue.record("\(value) did not resolve")
            return
        }
        #expect(writtenAbsolute == expected, "\(value)")
    }

    @Test("external URLs: unmirrored http(s) targets, once each, without fragment, in order")
    func external() throws {
        let plan = try Self.plan([
            Self.reference("https://other.test/x#a"),
            Self.reference("/img/logo.png", kind: .image),
            Self.reference("/missing"),
            Self.reference("https://other.test/x#b"),
            Self.reference("mailto:a@b.c"),
            Self.reference("//cdn.example.net/other.js", kind: .script),
        ])
        #expect(plan.external.map(\.string) == [
            "https://other.test/x", "https://example.com/missing", "https://cdn.example.net/other.js",
        ])
        #expect(plan.replacements.keys.sorted() == [1, 2, 5])
    }

    @Test("the base URL decides resolution; <base href> itself is left to the rewriter")
    func baseURL() throws {
        let references = [
            Self.reference("https://example.com/img/", kind: .base),
            Self.reference("logo.png", kind: .image),
        ]
        let plan = try Self.plan(references, base: "https://example.com/img/")
        #expect(plan.replacements[0] == nil)
        #expect(plan.replacements[1] == "../../img/logo.png")
    }

    @Test("srcset candidates are planned one by one")
    func srcset() throws {
        let syntax = Reference.Syntax.srcsetCandidate(attributeQuote: .double)
        let plan = try Self.plan([
            Self.reference("/img/logo.png", kind: .image, syntax: syntax),
            Self.reference("/img/logo@2x.png", kind: .image, syntax: syntax),
        ])
        #expect(plan.replacements[0] == "../../img/logo.png")
        #expect(plan.replacements[1] == "https://example.com/img/logo@2x.png")
    }

    @Test("a page at the site root links down into folders")
    func fromRoot() throws {
        let plan = LinkPlanner.plan(
            references: [Self.reference("docs/guide/page#s"), Self.reference("https://cdn.example.net/lib.js")],
            documentPath: "index.html", baseURL: try webURL("https://example.com/"),
            localPath: { Self.mirrored[$0.string] })
        #expect(plan.replacements[0] == "docs/guide/page@.html#s")
        #expect(plan.replacements[1] == "_hosts/cdn.example.net/lib.js")
        #expect(plan.external.isEmpty)
    }
}
