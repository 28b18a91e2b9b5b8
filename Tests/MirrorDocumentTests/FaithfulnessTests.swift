import Testing
@testable import MirrorDocument

@Suite struct FaithfulnessTests {
    static let page = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>Caf\u{E9} &amp; more</title>
        <link rel=stylesheet href="s.css?v=1&amp;x=2"></head>
        <body><video><source src="v.mp4" type="video/mp4"><track src="t.vtt"><img src="fallback.png"></video>
        <svg viewBox="0 0 10 10"><use xlink:href="#s"/></svg>
        <a href="search?q=a&b=c">bare amp</a><a HREF='Up.HTML'>upper</a>
        <p style="background:url(bg.png)">text</p><br/><img src=unq.png alt=x/>
        </body></html>
        """

    /// Bytes outside every edited span are unchanged and in order.
    static func assertOnlySpansChanged(_ original: [UInt8], _ out: [UInt8], _ edits: [Rewrite]) {
        var cursorIn = 0, cursorOut = 0
        for e in edits {
            let keep = e.span.lowerBound - cursorIn
            #expect(Array(original[cursorIn..<e.span.lowerBound]) == Array(out[cursorOut..<(cursorOut + keep)]))
            cursorOut += keep + e.replacement.count
            cursorIn = e.span.upperBound
        }
        #expect(Array(original[cursorIn...]) == Array(out[cursorOut...]))
    }

    @Test func noEditsMeansIdenticalBytes() throws {
        let bytes = Array(Self.page.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        // (`<use xlink:href="#s">` is fragment-only: not reported, as no rewrite changes it.)
        #expect(extraction.references.map(\.value) == ["s.css?v=1&x=2", "v.mp4", "t.vtt", "fallback.png", "search?q=a&b=c", "Up.HTML", "bg.png", "unq.png"])
        #expect(try ReferenceRewriter.rewrite(extraction) { _ in nil } == bytes)
        #expect(try ReferenceRewriter.rewrite(extraction) { $0.value } == bytes)
        for r in extraction.references {
            #expect(!String(decoding: bytes[r.span], as: UTF8.self).isEmpty)
        }
    }

    @Test func editsChangeOnlyTheirSpans() throws {
        let bytes = Array(Self.page.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        let edits = ReferenceRewriter.edits(for: extraction.references) { "L/" + $0.value }
        let out = try SpliceRewriter.apply(edits, to: bytes)
        #expect(edits.count == extraction.references.count)
        Self.assertOnlySpansChanged(bytes, out, edits)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains(#"href="L/search?q=a&amp;b=c""#))
        #expect(text.contains(#"href="L/s.css?v=1&amp;x=2""#))
        #expect(text.contains("viewBox=\"0 0 10 10\""))
        #expect(text.contains("<source src=\"L/v.mp4\" type=\"video/mp4\"><track src=\"L/t.vtt\"><img"))
    }

    @Test func latin1PageKeepsOffsetsAndDecodesValues() throws {
        // "<meta charset=iso-8859-1><a href="caf\xE9.html">caf\xE9</a><img src='\xFCber.png'>"
        var bytes = Array(#"<meta charset=iso-8859-1><a href="caf"#.utf8) + [0xE9] + Array(#".html">caf"#.utf8) + [0xE9]
        bytes += Array(#"</a><img src='"#.utf8) + [0xFC] + Array(#"ber.png'>"#.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        #expect(extraction.charset == .windows1252)
        #expect(extraction.charsetSource == .meta)
        #expect(extraction.references.map(\.value) == ["caf\u{E9}.html", "\u{FC}ber.png"])
        #expect(Array(bytes[extraction.references[0].span]) == Array("caf".utf8) + [0xE9] + Array(".html".utf8))
        #expect(try ReferenceRewriter.rewrite(extraction) { _ in nil } == bytes)
        let out = try ReferenceRewriter.rewrite(extraction) { $0.kind == .link ? "d\u{E9}j\u{E0}.html" : nil }
        let expected = Array(#"<meta charset=iso-8859-1><a href="d&#233;j&#224;.html">caf"#.utf8) + [0xE9]
        #expect(Array(out.prefix(expected.count)) == expected)
    }

    @Test func headerCharsetWinsOverMetaAndBOMWinsOverHeader() throws {
        let meta = Array("<meta charset=utf-8><a href=x>".utf8)
        #expect(try HTMLExtractor.extract(meta, contentType: "text/html; charset=ISO-8859-1").charset == .windows1252)
        #expect(try HTMLExtractor.extract([0xEF, 0xBB, 0xBF] + meta, contentType: "text/html; charset=latin1").charset == .utf8)
        let equiv = Array(#"<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><a href=x>"#.utf8)
        #expect(try HTMLExtractor.extract(equiv).charset == .windows1252)
        #expect(try HTMLExtractor.extract(Array("<a href=x>".utf8)).charsetSource == .defaulted)
        #expect(CharsetDetector.charsetParameter(#"text/html;charset="utf-8""#) == "utf-8")
    }

    @Test func utf8BOMPageKeepsOffsets() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<img src=\"\u{1F600}.png\">".utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        let r = try #require(extraction.references.first)
        #expect(r.value == "\u{1F600}.png")
        #expect(Array(bytes[r.span]) == Array("\u{1F600}.png".utf8))
    }

    @Test func utf16PageIsTranscoded() throws {
        let html = "<a href=\"\u{E9}t\u{E9}.html\">x</a>"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in html.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let extraction = try HTMLExtractor.extract(bytes)
        #expect(extraction.isTranscoded)
        #expect(extraction.charset == .utf16LE)
        #expect(extraction.source == Array(html.utf8))
        #expect(extraction.references.map(\.value) == ["\u{E9}t\u{E9}.html"])
    }
}
