import Testing
@testable import MirrorDocument

@Suite struct MetaRefreshAndBaseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var html: String
        var value: String
        var raw: String
        var urlQuote: Reference.Quote
        var testDescription: String { html }
    }

    static let cases: [Case] = [
        Case(html: #"<meta http-equiv="refresh" content="5; URL=next.html">"#, value: "next.html", raw: "next.html", urlQuote: .none),
        Case(html: #"<meta http-equiv=Refresh content="0;url=a.html?x=1&amp;y=2">"#, value: "a.html?x=1&y=2", raw: "a.html?x=1&amp;y=2", urlQuote: .none),
        Case(html: #"<meta http-equiv="refresh" content="5; URL='quoted page.html'">"#, value: "quoted page.html", raw: "quoted page.html", urlQuote: .single),
        Case(html: #"<meta content='3, url="dq.html"' http-equiv="REFRESH">"#, value: "dq.html", raw: "dq.html", urlQuote: .double),
        Case(html: #"<meta http-equiv="refresh" content="1; other.html  ">"#, value: "other.html", raw: "other.html", urlQuote: .none),
    ]

    @Test(arguments: cases)
    func findsRefreshURL(_ c: Case) throws {
        let extraction = try HTMLExtractor.extract(Array(c.html.utf8))
        let r = try #require(extraction.references.first { $0.kind == .metaRefresh })
        #expect(r.value == c.value)
        #expect(raw(extraction, r) == c.raw)
        #expect(!r.isRequisite)
        guard case .metaRefresh(_, let urlQuote) = r.syntax else {
            Issue.record("wrong syntax \(r.syntax)")
            return
        }
        #expect(urlQuote == c.urlQuote)
    }

    @Test(arguments: [
        #"<meta http-equiv="refresh" content="5">"#,
        #"<meta http-equiv="refresh" content="x; url=a.html">"#,
        #"<meta name="refresh" content="0; url=a.html">"#,
        #"<meta http-equiv="content-type" content="text/html; charset=utf-8">"#,
    ])
    func noRefreshURL(_ html: String) throws {
        let extraction = try HTMLExtractor.extract(Array(html.utf8))
        #expect(extraction.references.isEmpty)
    }

    @Test func baseIsReportedAndCanBeNeutralised() throws {
        let html = #"<head><base target="_top" href="https://h.example/d/"><a href="x.html">x</a></head>"#
        let extraction = try HTMLExtractor.extract(Array(html.utf8))
        let base = try #require(extraction.base)
        #expect(base.value == "https://h.example/d/")
        let kept = try ReferenceRewriter.rewrite(extraction) { _ in nil }
        #expect(kept == Array(html.utf8))
        let out = try ReferenceRewriter.rewrite(extraction, options: .init(neutraliseBase: true)) { r in
            r.kind == .link ? "local/x.html" : "ignored-because-removed"
        }
        #expect(String(decoding: out, as: UTF8.self) == #"<head><base target="_top"><a href="local/x.html">x</a></head>"#)
    }

    @Test func integrityIsDroppedOnlyForRewrittenElements() throws {
        let html = #"<link rel=stylesheet href="a.css" integrity="sha384-AAA" crossorigin><script src="b.js" integrity='sha384-BBB'></script>"#
        let extraction = try HTMLExtractor.extract(Array(html.utf8))
        let refs = extraction.references
        #expect(refs.count == 2)
        #expect(refs.allSatisfy { $0.integritySpan != nil })
        let out = try ReferenceRewriter.rewrite(extraction) { $0.value == "a.css" ? "local/a.css" : nil }
        #expect(String(decoding: out, as: UTF8.self)
            == #"<link rel=stylesheet href="local/a.css" crossorigin><script src="b.js" integrity='sha384-BBB'></script>"#)
        let keep = try ReferenceRewriter.rewrite(extraction, options: .init(dropIntegrityOfRewritten: false)) {
            $0.value == "a.css" ? "local/a.css" : nil
        }
        #expect(String(decoding: keep, as: UTF8.self).contains("sha384-AAA"))
    }
}
