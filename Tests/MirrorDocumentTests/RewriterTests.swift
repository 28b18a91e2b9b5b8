import Testing
@testable import MirrorDocument

@Suite struct RewriterTests {
    @Test func spliceKeepsBytesOutsideSpans() throws {
        let bytes = Array("0123456789".utf8)
        let out = try SpliceRewriter.apply(
            [Rewrite(span: 1..<3, replacement: Array("AB-C".utf8)), Rewrite(span: 3..<3, replacement: [0x2A]),
             Rewrite(span: 8..<10, replacement: [])],
            to: bytes)
        #expect(String(decoding: out, as: UTF8.self) == "0AB-C*34567")
        #expect(try SpliceRewriter.apply([], to: bytes) == bytes)
    }

    @Test(arguments: [
        [1..<4, 3..<5],
        [5..<6, 1..<2],
        [2..<4, 2..<3],
    ])
    func overlappingOrUnsortedEditsAreRejected(_ spans: [Range<Int>]) {
        let edits = spans.map { Rewrite(span: $0, replacement: []) }
        #expect(throws: DocumentError.self) { try SpliceRewriter.apply(edits, to: Array("0123456789".utf8)) }
    }

    @Test func outOfBoundsEditIsRejected() {
        #expect(throws: DocumentError.editOutOfBounds(span: 8..<12, documentLength: 10)) {
            try SpliceRewriter.apply([Rewrite(span: 8..<12, replacement: [])], to: Array("0123456789".utf8))
        }
    }

    struct EncodeCase: Sendable, CustomTestStringConvertible {
        var url: String
        var syntax: Reference.Syntax
        var expected: String
        var testDescription: String { "\(url) in \(syntax)" }
    }

    static let encodeCases: [EncodeCase] = [
        EncodeCase(url: "a.html?x=1&y=2", syntax: .htmlAttribute(quote: .double), expected: "a.html?x=1&amp;y=2"),
        EncodeCase(url: #"say"hi'.html"#, syntax: .htmlAttribute(quote: .double), expected: #"say&quot;hi'.html"#),
        EncodeCase(url: #"say"hi'.html"#, syntax: .htmlAttribute(quote: .single), expected: #"say"hi&#39;.html"#),
        EncodeCase(url: "plain.html", syntax: .htmlAttribute(quote: .none), expected: "plain.html"),
        EncodeCase(url: "with space.html", syntax: .htmlAttribute(quote: .none), expected: #""with space.html""#),
        EncodeCase(url: "a b,.png", syntax: .srcsetCandidate(attributeQuote: .double), expected: "a%20b,.png"),
        EncodeCase(url: "trailing,", syntax: .srcsetCandidate(attributeQuote: .none), expected: "trailing%2C"),
        EncodeCase(url: "x y.html", syntax: .metaRefresh(attributeQuote: .double, urlQuote: .single), expected: "x y.html"),
        EncodeCase(url: "it's.html", syntax: .metaRefresh(attributeQuote: .double, urlQuote: .single), expected: "it%27s.html"),
        EncodeCase(url: "a(1).png", syntax: .css(quote: .none, attributeQuote: nil), expected: #"a\(1\).png"#),
        EncodeCase(url: "a b.png", syntax: .css(quote: .none, attributeQuote: nil), expected: #"a\20 b.png"#),
        EncodeCase(url: #"q"s'.png"#, syntax: .css(quote: .double, attributeQuote: nil), expected: #"q\"s'.png"#),
        EncodeCase(url: "</style>.png", syntax: .css(quote: .single, attributeQuote: nil), expected: #"\3c /style>.png"#),
        EncodeCase(url: #"q".png?a&b"#, syntax: .css(quote: .double, attributeQuote: .double), expected: #"q\&quot;.png?a&amp;b"#),
        EncodeCase(url: "é.png", syntax: .htmlAttribute(quote: .double), expected: "é.png"),
    ]

    @Test(arguments: encodeCases)
    func encodesForContext(_ c: EncodeCase) {
        #expect(String(decoding: URLEncoder.encode(c.url, for: c.syntax), as: UTF8.self) == c.expected)
    }

    @Test func nonUTF8DocumentsGetCharacterReferences() {
        #expect(String(decoding: URLEncoder.encode("é.png", for: .htmlAttribute(quote: .double), charset: .windows1252), as: UTF8.self) == "&#233;.png")
        #expect(String(decoding: URLEncoder.encode("é.png", for: .css(quote: .none, attributeQuote: nil), charset: .windows1252), as: UTF8.self) == #"\e9 .png"#)
    }

    @Test func rewrittenDocumentReadsBackTheNewURLs() throws {
        let html = #"<a href=old.html>x</a><img srcset="a.png 1x, b.png 2x"><div style="background:url('bg.png')"></div><style>p{background:url(p.png)}</style><meta http-equiv=refresh content="0; url='r.html'">"#
        let extraction = try HTMLExtractor.extract(Array(html.utf8))
        let newURL: (Reference) -> String? = { "new dir/\($0.value)?q=1&r=\"2\"" }
        let out = try ReferenceRewriter.rewrite(extraction, replacement: newURL)
        let again = try HTMLExtractor.extract(out)
        // srcset candidates cannot hold whitespace, so the encoder percent-encodes it there.
        let expected = extraction.references.map { r in
            let url = newURL(r)!
            return r.attribute == "srcset" ? url.split(separator: " ", omittingEmptySubsequences: false).joined(separator: "%20") : url
        }
        #expect(again.references.map(\.value) == expected)
        #expect(again.references.map(\.kind) == extraction.references.map(\.kind))
    }

    @Test func cssFileRewrite() throws {
        let css = Array(#"@import "a.css"; /* keep */ p { background: url( b.png ) } @font-face { src: url(f.eot?#iefix) }"#.utf8)
        let out = try ReferenceRewriter.rewriteCSS(css) { "local/" + $0.value }
        #expect(String(decoding: out, as: UTF8.self)
            == #"@import "local/a.css"; /* keep */ p { background: url( local/b.png ) } @font-face { src: url(local/f.eot?#iefix) }"#)
    }

    /// `append` takes a shortcut for plain ASCII URLs: it must write what `encode` writes, in
    /// every syntax and charset, for URLs with and without the characters that need escaping.
    @Test func appendWritesWhatEncodeWrites() {
        let quotes: [Reference.Quote] = [.none, .single, .double]
        var syntaxes: [Reference.Syntax] = []
        for q in quotes {
            syntaxes.append(.htmlAttribute(quote: q))
            syntaxes.append(.srcsetCandidate(attributeQuote: q))
            syntaxes.append(.css(quote: q, attributeQuote: nil))
            for inner in quotes {
                syntaxes.append(.metaRefresh(attributeQuote: q, urlQuote: inner))
                syntaxes.append(.css(quote: q, attributeQuote: inner))
            }
        }
        let charsets: [Charset] = [.utf8, .windows1252, .utf16LE]
        let pieces = ["a", "../", "x/y.html", "%20", "#f", "?q=1", ",", " ", "\t", "'", "\"", "&", "<", ">", "=", "`", "\\",
                      "(", ")", "é", "~", "!$*+;@:", "\u{7F}", "\n"]
        let escaped = Array(#"'"&<>=`\()"#.utf8)
        var generator = SystemRandomNumberGenerator()
        var plain = 0
        for _ in 0..<5_000 {
            let url = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if !url.isEmpty, url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !escaped.contains($0) }) { plain += 1 }
            for syntax in syntaxes {
                for charset in charsets {
                    var appended: [UInt8] = [0x2A]
                    URLEncoder.append(url, for: syntax, charset: charset, to: &appended)
                    #expect(appended == [0x2A] + URLEncoder.encode(url, for: syntax, charset: charset), "\(url) \(syntax) \(charset)")
                }
            }
        }
        #expect(plain > 200, "the shortcut was exercised")
    }

    /// The site plan (one buffer for every new URL) orders replacements, `<base href>` and
    /// `integrity` deletions exactly as the reference-based plan does, whatever the order the
    /// sites come in.
    @Test func siteRewriteMatchesTheReferenceRewrite() throws {
        let html = Array("""
            <html><head><base href="/b/"><link rel=stylesheet href="s.css" integrity="sha384-x">
            <script integrity="sha256-y" src="j.js"></script></head><body>
            <img src="a.png" srcset="a.png 1x, b%20c.png 2x" style="background: url('q(1).png')">
            <a href="x.html">x</a> <a href="keep.html">k</a></body></html>
            """.utf8)
        let extraction = try HTMLExtractor.extract(html)
        let references = extraction.references
        func newURL(_ reference: Reference) -> String? {
            reference.value == "keep.html" ? nil : reference.value == "b%20c.png" ? "../b c,.png" : "local/" + reference.value
        }
        let expected = try ReferenceRewriter.rewrite(extraction, options: .init(dropIntegrityOfRewritten: true, neutraliseBase: true)) {
            newURL($0)
        }
        let kept = references.filter { $0.kind != .base }
        let deletions = references.compactMap { $0.kind == .base ? $0.attributeSpan : nil }
        #expect(!deletions.isEmpty)
        for order in [Array(kept.indices), Array(kept.indices.reversed()), kept.indices.shuffled()] {
            let sites = order.compactMap { ReferenceSite(kept[$0]) }
            let output = try ReferenceRewriter.rewrite(html, sites: sites, deleting: deletions) { newURL(kept[order[$0]]) }
            #expect(String(decoding: output, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
        let text = String(decoding: expected, as: UTF8.self)
        #expect(!text.contains("integrity"))
        #expect(text.contains(#"href="keep.html""#))
        #expect(text.contains("local/s.css"))
        #expect(text.contains("q\\(1\\).png") || text.contains("local/q(1).png"))
    }
}
