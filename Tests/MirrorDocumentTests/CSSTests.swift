import Testing
@testable import MirrorDocument
import MirrorTestSupport

func cssTokens(_ css: String) -> [(CSSToken.Kind, String)] {
    let bytes = Array(css.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
        var tokenizer = CSSTokenizer(buffer, range: 0..<buffer.count)
        var out: [(CSSToken.Kind, String)] = []
        while let t = tokenizer.next() { out.append((t.kind, String(decoding: bytes[t.content], as: UTF8.self))) }
        return out
    }
}

@Suite struct CSSTokenizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var css: String
        var kinds: [CSSToken.Kind]
        var contents: [String]
        var testDescription: String { css }
    }

    static let cases: [Case] = [
        Case(css: "a{color:red}", kinds: [.ident, .openCurly, .ident, .colon, .ident, .closeCurly], contents: ["a", "{", "color", ":", "red", "}"]),
        Case(css: "/* c */x/**/y", kinds: [.ident, .ident], contents: ["x", "y"]),
        Case(css: "/* unterminated", kinds: [], contents: []),
        Case(css: #""dq" 'sq'"#, kinds: [.string, .whitespace, .string], contents: ["dq", " ", "sq"]),
        Case(css: #""a\"b""#, kinds: [.string], contents: [#"a\"b"#]),
        Case(css: "'line\nbreak'", kinds: [.badString, .whitespace, .ident, .string], contents: ["line", "\n", "break", ""]),
        Case(css: "url( a.png )", kinds: [.url], contents: ["a.png"]),
        Case(css: "URL(b\\).png)", kinds: [.url], contents: ["b\\).png"]),
        Case(css: #"url("q.png")"#, kinds: [.function, .string, .closeParen], contents: ["url", "q.png", ")"]),
        Case(css: "url(a b.png) x", kinds: [.badURL, .whitespace, .ident], contents: ["url(a b.png)", " ", "x"]),
        Case(css: "url(a(b).png)", kinds: [.badURL, .delim, .ident, .closeParen], contents: ["url(a(b)", ".", "png", ")"]),
        Case(css: "@import x;", kinds: [.atKeyword, .whitespace, .ident, .semicolon], contents: ["import", " ", "x", ";"]),
        Case(css: "#id .c", kinds: [.hash, .whitespace, .delim, .ident], contents: ["id", " ", ".", "c"]),
        Case(css: "10px 50% -1.5e3 +.5", kinds: [.dimension, .whitespace, .percentage, .whitespace, .number, .whitespace, .number], contents: ["10px", " ", "50%", " ", "-1.5e3", " ", "+.5"]),
        Case(css: "<!-- -->", kinds: [.cdo, .whitespace, .cdc], contents: ["<!--", " ", "-->"]),
        Case(css: "\\66 oo", kinds: [.ident], contents: ["\\66 oo"]),
        Case(css: "--var:1", kinds: [.ident, .colon, .number], contents: ["--var", ":", "1"]),
    ]

    @Test(arguments: cases)
    func tokenizes(_ c: Case) {
        let tokens = cssTokens(c.css)
        #expect(tokens.map(\.0) == c.kinds)
        #expect(tokens.map(\.1) == c.contents)
    }
}

@Suite struct CSSExtractorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var css: String
        var values: [String]
        var raws: [String]
        var kinds: [Reference.Kind]
        var testDescription: String { css }
    }

    static let cases: [Case] = [
        Case(css: "a{background:url(bg.png)}", values: ["bg.png"], raws: ["bg.png"], kinds: [.cssURL]),
        Case(css: "a{background:url( 'sq.png' )}", values: ["sq.png"], raws: ["sq.png"], kinds: [.cssURL]),
        Case(css: #"a{background:url("dq.png")}"#, values: ["dq.png"], raws: ["dq.png"], kinds: [.cssURL]),
        Case(css: "a{b:url(  spaced.png  )}", values: ["spaced.png"], raws: ["spaced.png"], kinds: [.cssURL]),
        Case(css: #"a{b:url(esc\(1\).png)}"#, values: ["esc(1).png"], raws: [#"esc\(1\).png"#], kinds: [.cssURL]),
        Case(css: #"a{b:url("\66 ile.png")}"#, values: ["file.png"], raws: [#"\66 ile.png"#], kinds: [.cssURL]),
        Case(css: #"@import "imp.css";"#, values: ["imp.css"], raws: ["imp.css"], kinds: [.cssImport]),
        Case(css: "@import 'imp2.css' screen;", values: ["imp2.css"], raws: ["imp2.css"], kinds: [.cssImport]),
        Case(css: "@import url(imp3.css);", values: ["imp3.css"], raws: ["imp3.css"], kinds: [.cssImport]),
        Case(css: #"@IMPORT url("imp4.css") print;"#, values: ["imp4.css"], raws: ["imp4.css"], kinds: [.cssImport]),
        Case(css: #"a{b:image-set("a.png" 1x, url(b.png) 2x)}"#, values: ["a.png", "b.png"], raws: ["a.png", "b.png"], kinds: [.cssURL, .cssURL]),
        Case(css: #"a{b:-webkit-image-set('c.png' 1x, "d.png" 2x)}"#, values: ["c.png", "d.png"], raws: ["c.png", "d.png"], kinds: [.cssURL, .cssURL]),
        Case(css: #"a{b:image-set(url("e.png") type("image/png") 1x)}"#, values: ["e.png"], raws: ["e.png"], kinds: [.cssURL]),
        Case(css: #"@font-face{font-family:F;src:url('font.eot?#iefix') format('embedded-opentype'),url(font.woff) format("woff")}"#, values: ["font.eot?#iefix", "font.woff"], raws: ["font.eot?#iefix", "font.woff"], kinds: [.cssURL, .cssURL]),
        Case(css: "/* url(no.png) */ a{content:'url(no2.png)'}", values: [], raws: [], kinds: []),
        Case(css: "a{b:url(bad url.png)} c{d:url(ok.png)}", values: ["ok.png"], raws: ["ok.png"], kinds: [.cssURL]),
        Case(css: "a{b:url()}", values: [], raws: [], kinds: []),
        Case(css: "@import url(x.css); a{b:url(y.png)}", values: ["x.css", "y.png"], raws: ["x.css", "y.png"], kinds: [.cssImport, .cssURL]),
    ]

    @Test(arguments: cases)
    func extractsURLs(_ c: Case) {
        let bytes = Array(c.css.utf8)
        let refs = CSSExtractor.extract(bytes)
        #expect(refs.map(\.value) == c.values)
        #expect(refs.map { String(decoding: bytes[$0.span], as: UTF8.self) } == c.raws)
        #expect(refs.map(\.kind) == c.kinds)
        #expect(refs.allSatisfy { $0.isRequisite })
    }

    @Test func styleElementAndAttributeSpansPointIntoTheDocument() throws {
        let html = #"<style>@import "a.css"; p{background:url(p.png)}</style><div style="background: url(&quot;d.png&quot;)">x</div><p style='b:url(q.png)'></p>"#
        let extraction = try HTMLExtractor.extract(Array(html.utf8))
        let refs = extraction.references
        #expect(refs.map(\.value) == ["a.css", "p.png", "d.png", "q.png"])
        #expect(refs.map { raw(extraction, $0) } == ["a.css", "p.png", "d.png", "q.png"])
        // The style attribute's CSS is read after entity decoding: &quot; quotes a CSS string.
        #expect(refs[2].syntax == .css(quote: .double, attributeQuote: .double))
        #expect(refs[0].kind == .cssImport && refs[0].element == "style")
        #expect(refs[1].syntax == .css(quote: .none, attributeQuote: nil))
        #expect(refs.last?.element == "p" && refs.last?.attribute == "style")
        #expect(refs.last?.syntax == .css(quote: .none, attributeQuote: .single))
    }

    /// The screen that skips the tokenizer: no stylesheet it passes over holds a reference the
    /// tokenizer would find, and it does pass over the ones without (or the screen saves nothing).
    @Test func screenNeverHidesAReference() {
        let pieces = [
            "url(a.png)", "URL( 'b.png' )", "uRl(\"c.png\")", "src(d.woff)", "src('t.woff')", "src:", "image-set(\"e.png\" 1x)",
            "-webkit-image-set('f.png' 2x)", "@import \"g.css\";", "@IMPORT url(h.css);", "@imports 'i.css';", "@media print{",
            "rgba(0,0,0,.5)", "calc(1px + 2%)", ":not(.x)", "xurl(j.png)", "1url(k.png)", "--url(l.png)", "-url(m.png)",
            "#url(n.png)", "\\75 rl(o.png)", "u\\72l(p.png)", "\\ url(q.png)", "/* url(r.png) */", "'url(s.png)'",
            "é", "url", "(", ")", "{", "}", ";", " ", "\n", "a{color:red}", "\\", "@", "\"", "'", "/*", "*/",
            "image-set", "-webkit-", "src", "import", "font-face", "@font-face{font-family:x;src:", "background:",
            "<!--", "-->", "<!--url(\"u.png\")", "--", "<!", "!",
        ]
        var generator = SplitMix64(seed: 0x6373_7321)
        var screened = 0
        for _ in 0..<20_000 {
            var css = ""
            for _ in 0..<Int.random(in: 1...12, using: &generator) { css += pieces.randomElement(using: &generator)! }
            let bytes = Array(css.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                var all: [Reference] = []
                CSSExtractor.tokenize(buffer, range: 0..<buffer.count, charset: .utf8, attributeQuote: nil, element: nil,
                                      attribute: nil, into: &all)
                if !CSSExtractor.mayHoldReferences(buffer, range: 0..<buffer.count) {
                    screened += 1
                    #expect(all.isEmpty, "\(css)")
                }
                #expect(CSSExtractor.extract(bytes).map(\.span) == all.map(\.span), "\(css)")
            }
        }
        #expect(screened > 2_000)
        // The fuzzer's find: `<!--` is a token of its own, so the name is `url`, not `--url`.
        for css in ["<!--url(\"fz0", "<!--URL(a.png)", "<!--src('f.woff')", "x<!--image-set('i.png' 1x)"] {
            let bytes = Array(css.utf8)
            #expect(CSSExtractor.extract(bytes).count == 1, "\(css)")
        }
        // Inside a larger document the screen looks at its own range only.
        let page = Array("url(x.png)<style>a{color:red}</style>".utf8)
        page.withUnsafeBufferPointer { buffer in
            #expect(!CSSExtractor.mayHoldReferences(buffer, range: 17..<29))
            #expect(CSSExtractor.mayHoldReferences(buffer, range: 0..<29))
        }
    }
}
