import MirrorCore
import MirrorDocument
import Testing
@testable import MirrorCrawler

/// The rewrite prepared during the crawl (one parse per document) must write exactly what the
/// rewrite that parses the document again writes.
@Suite("DeferredRewrite")
struct DeferredRewriteTests {
    static let documentURL = "https://example.com/docs/guide/"
    static let documentPath = "docs/guide/index.html"
    static let mirrored: [String: String] = [
        "https://example.com/docs/guide/": "docs/guide/index.html",
        "https://example.com/docs/guide/page": "docs/guide/page@.html",
        "https://example.com/img/logo.png": "img/logo.png",
        "https://example.com/img/logo@2x.png": "img/logo@2x.png",
        "https://example.com/img/a,b.png": "img/a,b.png",
        "https://example.com/css/site.css": "css/site.css",
        "https://example.com/css/print.css": "css/print.css",
        "https://example.com/fonts/f.woff2": "fonts/f.woff2",
        "https://example.com/base/rel.html": "base/rel.html",
        "https://example.com/q?x=1&y=2": "q@x=1&y=2.html",
        "https://example.com/caf%C3%A9.html": "café.html",
        "https://cdn.example.net/lib.js": "_hosts/cdn.example.net/lib.js",
    ]

    static let html = """
        <!doctype html><html><head><meta charset="utf-8">
        <link rel="stylesheet" href="/css/site.css" integrity="sha384-abc" crossorigin>
        <link rel=icon href=../../img/logo.png>
        <script src="//cdn.example.net/lib.js" integrity='sha256-x'></script>
        <script src="https://cdn.example.net/other.js" integrity="sha256-y"></script>
        <style>@import url("/css/print.css"); body { background: url(/img/logo.png#frag) }
        @font-face { src: url('/fonts/f.woff2?#iefix') }</style>
        <meta http-equiv="refresh" content="5; URL='page#top'">
        </head><body background="/img/logo.png">
        <a href="page#s1">one</a> <a href="PAGE">case</a> <a href="#local">frag</a> <a href="">empty</a>
        <a href="mailto:x@example.com">mail</a> <a href="/q?x=1&amp;y=2">query</a> <a href="/caf&#233;.html">café</a>
        <a href="/missing.html#m">missing</a> <a href="https://elsewhere.example/x">out</a> <a href="//[bad/x">bad</a> <a href="http://[bad">kept</a>
        <img src="/img/logo.png" srcset="/img/logo.png 1x, /img/logo@2x.png 2x,
           /img/a,b.png 3x" style="background-image: image-set('/img/logo.png' 1x)">
        <picture><source srcset="data:image/png;base64,AAAA 1x, /img/logo@2x.png 2x"></picture>
        <svg><use xlink:href="/img/logo.png#icon"/><image href="/img/logo@2x.png"/><a xlink:href="page#svg"><rect/></a></svg>
        <video poster="/img/logo.png" src="/media/v.mp4"></video>
        <a href="page" title="x">same</a>
        <a href="./../../css/../img/logo.png#top">kept as written</a> <a href="../../img/logo.png#other">fragment</a>
        </body></html>
        """

    static let css = """
        @import "print.css";
        @import url(/css/print.css) screen;
        /* url(/img/commented.png) */
        .a { background: url( "../img/logo.png" ) } .b { background: url(../img/a,b.png) }
        @font-face { src: url(../fonts/f.woff2?#iefix) format("embedded-opentype"), url(missing.woff) }
        .c { background: url(data:image/gif;base64,R0lGOD) } .d { background: url(https://elsewhere.example/i.png) }
        """

    /// The rewrite as the crawl prepares it: ``Crawler/discover`` fills the draft. It is
    /// written to a spill record and read back, as the crawl does, and must come back equal.
    static func deferred(_ references: [Reference], base: WebURL, charset: Charset, length: Int)
        -> (DeferredRewrite?, [DiscoveredLink])
    {
        var draft: DeferredRewrite.Draft? = DeferredRewrite.Draft(charset: charset, length: length)
        let links = DocumentPipeline.discover(references, base: base, maxURLLength: 8192, draft: &draft)
        guard let rewrite = draft.flatMap({ DeferredRewrite($0) }) else { return (nil, links) }
        var writer = ByteRecord.Writer()
        rewrite.write(to: &writer)
        let readBack = writer.bytes.withUnsafeBytes { bytes in
            var reader = ByteRecord.Reader(bytes)
            let read = DeferredRewrite.read(from: &reader)
            return reader.isAtEnd ? read : nil
        }
        #expect(readBack == rewrite, "the spilled record reads back equal")
        return (readBack, links)
    }

    static func localPaths(_ rewrite: DeferredRewrite) -> [String?] { rewrite.keys.map { mirrored[$0] } }

    static func replacements(_ references: [Reference], _ plan: LinkPlan) -> [Reference: String] {
        var table: [Reference: String] = [:]
        for (index, text) in plan.replacements { table[references[index]] = text }
        return table
    }

    @Test("an HTML document is rewritten exactly as by a second parse")
    func htmlMatchesTheParsingRewrite() throws {
        let bytes = Array(Self.html.utf8)
        let extraction = try HTMLExtractor.extract(bytes, contentType: "text/html")
        let base = try webURL(Self.documentURL)
        let plan = LinkPlanner.plan(references: extraction.references, documentPath: Self.documentPath, baseURL: base,
                                    localPath: { Self.mirrored[$0.string] })
        let table = Self.replacements(extraction.references, plan)
        let expected = try ReferenceRewriter.rewrite(extraction, options: .init(dropIntegrityOfRewritten: true, neutraliseBase: true)) {
            table[$0]
        }
        let (deferred, links) = Self.deferred(extraction.references, base: base, charset: extraction.charset, length: bytes.count)
        let rewrite = try #require(deferred)
        let output = try #require(try rewrite.rewrite(bytes, documentPath: Self.documentPath, localPaths: Self.localPaths(rewrite)))
        #expect(String(decoding: output, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(output != bytes)
        // Things the output must show, so that the comparison above compares real rewrites.
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains(#"href="../../css/site.css" crossorigin"#), "integrity of a rewritten link dropped")
        #expect(text.contains(#"src="https://cdn.example.net/other.js" integrity="sha256-y""#), "an absolute unmirrored URL keeps its integrity")
        #expect(text.contains(#"href="../../missing.html#m""#) == false)
        #expect(text.contains(#"href="https://example.com/missing.html#m""#))
        #expect(text.contains(#"href="about:invalid""#))
        #expect(text.contains(#"<a href="http://[bad">kept</a>"#))
        #expect(text.contains("../../img/a,b.png 3x"))
        // Links that already lead to the local copy are left as the origin wrote them.
        #expect(text.contains("<link rel=icon href=../../img/logo.png>"))
        #expect(text.contains(#"<a href="./../../css/../img/logo.png#top">"#))
        #expect(text.contains(#"<a href="../../img/logo.png#other">"#))
        #expect(text.contains(#"<a xlink:href="page@.html#svg">"#), "an SVG 1.1 link is rewritten like <a href>")
        // One key per distinct URL, however often it is referenced.
        #expect(Set(rewrite.keys).count == rewrite.keys.count)
        #expect(rewrite.keys.filter { $0 == "https://example.com/img/logo.png" }.count == 1)
        #expect(links.contains { $0.url.string == "https://example.com/media/v.mp4" && $0.isRequisite })
        #expect(!links.contains { $0.url.string.hasPrefix("mailto:") || $0.url.string.hasPrefix("data:") })
    }

    @Test("a damaged spill record reads back as nil or as something the rewrite refuses, never a trap")
    func damagedRecordsAreRefused() throws {
        let bytes = Array(Self.html.utf8)
        let extraction = try HTMLExtractor.extract(bytes, contentType: "text/html")
        let (deferred, _) = Self.deferred(extraction.references, base: try webURL(Self.documentURL), charset: extraction.charset,
                                          length: bytes.count)
        let rewrite = try #require(deferred)
        var writer = ByteRecord.Writer()
        rewrite.write(to: &writer)
        let record = writer.bytes
        func read(_ bytes: [UInt8]) -> DeferredRewrite? {
            bytes.withUnsafeBytes { raw in
                var reader = ByteRecord.Reader(raw)
                return DeferredRewrite.read(from: &reader)
            }
        }
        for cut in 0..<record.count {
            #expect(read(Array(record.prefix(cut))) == nil, "cut at \(cut) of \(record.count)")
        }
        for position in record.indices {
            var damaged = record
            damaged[position] ^= 0xA5
            guard let wrong = read(damaged) else { continue }
            // Whatever reads back is used only through the rewrite, which must not trap.
            _ = try? wrong.rewrite(bytes, documentPath: Self.documentPath, localPaths: Self.localPaths(wrong))
        }
    }

    @Test("a document offers each URL once per kind of reference")
    func discoveredLinksAreOfferedOncePerKind() throws {
        let html = """
            <a href="p.html#one">1</a><a href="p.html#two">2</a><a href="p.html">3</a><a href="https://out.example/x">o</a>
            <img src="i.png"><img src="i.png#frag"><a href="i.png">as a page</a><a href="https://out.example/x#y">o</a>
            """
        let extraction = try HTMLExtractor.extract(Array(html.utf8), contentType: "text/html")
        let base = try webURL(Self.documentURL)
        // With and without the resolution cache; with a draft (links found by its numbers) and
        // without one (a UTF-16 document: by their text).
        for (cache, drafted) in [(nil, true), (ResolutionCache(), true), (ResolutionCache(), false)] as [(ResolutionCache?, Bool)] {
            var draft: DeferredRewrite.Draft? = drafted ? DeferredRewrite.Draft(charset: extraction.charset, length: html.utf8.count) : nil
            let links = DocumentPipeline.discover(extraction.references, base: base, maxURLLength: 8192, draft: &draft, cache: cache)
            let summary = links.map { "\($0.url.string) \($0.isRequisite ? "requisite" : "page")" }
            #expect(summary == [
                "https://example.com/docs/guide/p.html page", "https://out.example/x page",
                "https://example.com/docs/guide/i.png requisite", "https://example.com/docs/guide/i.png page",
            ], "cache: \(cache != nil), draft: \(drafted)")
            guard drafted else { continue }
            // The rewrite still sees all eight references, fragments kept.
            let rewrite = try #require(draft.flatMap { DeferredRewrite($0) })
            #expect(rewrite.sites.count == 8)
        }
    }

    @Test("a <base href> is resolved against, then removed")
    func baseIsNeutralised() throws {
        let bytes = Array(#"<html><head><base href="/base/"></head><body><a href="rel.html">r</a></body></html>"#.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        let documentURL = try webURL(Self.documentURL)
        let (deferred, links) = Self.deferred(extraction.references, base: DocumentPipeline.baseURL(of: extraction, documentURL: documentURL),
                                              charset: extraction.charset, length: bytes.count)
        let rewrite = try #require(deferred)
        let output = try #require(try rewrite.rewrite(bytes, documentPath: Self.documentPath, localPaths: Self.localPaths(rewrite)))
        #expect(String(decoding: output, as: UTF8.self) == #"<html><head><base></head><body><a href="../../base/rel.html">r</a></body></html>"#)
        #expect(links.map(\.url.string) == ["https://example.com/base/rel.html"])
    }

    @Test("a stylesheet is rewritten exactly as by a second parse")
    func cssMatchesTheParsingRewrite() throws {
        let bytes = Array(Self.css.utf8)
        let documentURL = try webURL("https://example.com/css/site.css")
        let references = CSSExtractor.extract(bytes)
        let plan = LinkPlanner.plan(references: references, documentPath: "css/site.css", baseURL: documentURL,
                                    localPath: { Self.mirrored[$0.string] })
        let table = Self.replacements(references, plan)
        let expected = try ReferenceRewriter.rewriteCSS(bytes) { table[$0] }
        let (deferred, _) = Self.deferred(references, base: documentURL, charset: .utf8, length: bytes.count)
        let rewrite = try #require(deferred)
        let output = try #require(try rewrite.rewrite(bytes, documentPath: "css/site.css", localPaths: Self.localPaths(rewrite)))
        #expect(String(decoding: output, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(String(decoding: output, as: UTF8.self).contains("url(https://example.com/css/missing.woff)"))
    }

    @Test("a value that decodes to its replacement is written plainly (a second parse would keep the escape)")
    func escapedValueIsWrittenPlainly() throws {
        let bytes = Array(#".b { background: url(../img/a\,b.png) }"#.utf8)
        let documentURL = try webURL("https://example.com/css/site.css")
        let (deferred, _) = Self.deferred(CSSExtractor.extract(bytes), base: documentURL, charset: .utf8, length: bytes.count)
        let rewrite = try #require(deferred)
        let output = try #require(try rewrite.rewrite(bytes, documentPath: "css/site.css", localPaths: Self.localPaths(rewrite)))
        #expect(String(decoding: output, as: UTF8.self) == ".b { background: url(../img/a,b.png) }")
    }

    @Test("windows-1252: the bytes outside the links stay as they are; new links are ASCII")
    func legacyCharsetEscapesNonASCII() throws {
        let bytes: [UInt8] = Array(#"<html><head><meta charset="windows-1252"></head><body><a href="/caf&#233;.html">"#.utf8)
            + [0xE9] + Array(#"</a><a href="/x#r&#233;sum&#233;">r</a></body></html>"#.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        #expect(extraction.charset == .windows1252)
        let (deferred, _) = Self.deferred(extraction.references, base: try webURL("https://example.com/"),
                                          charset: extraction.charset, length: bytes.count)
        let rewrite = try #require(deferred)
        let output = try #require(try rewrite.rewrite(bytes, documentPath: "index.html", localPaths: Self.localPaths(rewrite)))
        #expect(output == Array(#"<html><head><meta charset="windows-1252"></head><body><a href="caf%C3%A9.html">"#.utf8)
            + [0xE9] + Array(#"</a><a href="https://example.com/x#r%C3%A9sum%C3%A9">r</a></body></html>"#.utf8))
    }

    @Test("bytes other than the parsed ones are refused, so the crawler parses them again")
    func otherBytesAreRefused() throws {
        let bytes = Array(#"<a href="page">x</a>"#.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        let (deferred, _) = Self.deferred(extraction.references, base: try webURL(Self.documentURL), charset: .utf8,
                                          length: bytes.count)
        let rewrite = try #require(deferred)
        #expect(try rewrite.rewrite(bytes + [0x20], documentPath: Self.documentPath, localPaths: Self.localPaths(rewrite)) == nil)
        #expect(try rewrite.rewrite(bytes, documentPath: Self.documentPath, localPaths: Self.localPaths(rewrite))
            == Array(#"<a href="page@.html">x</a>"#.utf8))
    }

    @Test("a reference beyond 32-bit offsets makes the draft incomplete")
    func hugeOffsetsAreNotKept() throws {
        let far = Reference(kind: .link, element: "a", attribute: "href", value: "page", span: 5_000_000_000..<5_000_000_004,
                            isRequisite: false, syntax: .htmlAttribute(quote: .double))
        #expect(ReferenceSite(far) == nil)
        let (deferred, links) = Self.deferred([far], base: try webURL(Self.documentURL), charset: .utf8, length: 5_000_000_010)
        #expect(deferred == nil)
        #expect(links.count == 1, "the link is still crawled")
    }

    @Test("a replacement equal to the bytes in place is no edit, and keeps integrity")
    func unchangedSiteIsNoEdit() throws {
        let bytes = Array(#"<script src="https://cdn.example.net/x.js" integrity="sha256-q"></script>"#.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        let sites = extraction.references.compactMap(ReferenceSite.init)
        #expect(sites.count == 1)
        #expect(sites.first?.integritySpan != nil)
        let same = ReferenceRewriter.edits(at: sites, in: bytes, deleting: []) { _ in "https://cdn.example.net/x.js" }
        #expect(same.isEmpty)
        let changed = ReferenceRewriter.edits(at: sites, in: bytes, deleting: []) { _ in "x.js" }
        #expect(changed.count == 2, "the URL and the integrity attribute")
        #expect(try SpliceRewriter.apply(changed, to: bytes) == Array(#"<script src="x.js"></script>"#.utf8))
        let outside = ReferenceRewriter.edits(at: sites, in: Array(bytes.prefix(10)), deleting: [0..<4, 8..<40]) { _ in "x.js" }
        #expect(outside.map(\.span) == [0..<4], "spans beyond the bytes are ignored")
    }
}
