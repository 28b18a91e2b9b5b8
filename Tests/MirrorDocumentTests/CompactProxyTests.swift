import Foundation
import Testing
@testable import MirrorDocument
import MirrorTestSupport

/// The compacted copy libxml2 parses (``CompactProxy``): what it collapses, what it must keep,
/// its offset map, and that extraction finds exactly the same references with it as without.
@Suite struct CompactProxyTests {
    /// The context-free rules alone: most of these snippets have no `<body>` and read with
    /// certainty, which the skim would take (``CertainMarkupTests``).
    private func compact(_ text: String) -> (String, CompactProxy) {
        let bytes = Array(text.utf8)
        let proxy = bytes.withUnsafeBufferPointer { CompactProxy($0, skimming: false) }
        return (String(decoding: proxy.bytes, as: UTF8.self), proxy)
    }

    @Test func collapsesTextAndValuesButKeepsMarkup() {
        let (out, _) = compact(#"<p class="intro">Hello,   world</p>  <a href="x.html" id=q>ab</a>"#)
        #expect(out == #"<p class=":">x</p> <a href=":" id=q>x</a>"#)
    }

    @Test func keepsTheBytesThatEndCommentsCDATAAndInstructions() {
        let (out, _) = compact("<!-- one > two -- three --> <![CDATA[ a > b ]]> <?pi x > y ?>")
        #expect(out == "<!-- one >x--x--> <![CDATA[ a >x]]> <?pi x >x?>")
        // A `-` next to a collapsed run never makes `--` where there was none.
        let (dashes, _) = compact("<!-- a > b-c-d -->")
        #expect(dashes == "<!-- a >x-c-x-->")
    }

    @Test func aQuoteInTextEndsTheStretchUntilTheNextTag() {
        // After `>` inside a quoted value, the closing quote leads back into the tag: copied.
        let (out, _) = compact(#"<img alt="a > b c" src="long/path.png"> text 'quoted' here"#)
        #expect(out == #"<img alt="a >x" src=":">x'quoted' here"#)
    }

    @Test func leavesValuesThatCouldMatter() {
        // Values holding `<`, `>`, `=` or the other quote, one-byte and blank values, `=` with
        // no whitespace-led name before it, names libxml2 does not read as names, and a name
        // that may be an unquoted value (after `=`) are copied.
        for text in [#"<a title="x<y" href="z">"#, #"<a title="a=b" href='c"d'>"#, #"<a b="c">"#,
                     #"<a/b="long value">"#, #"<a b=c="long value">"#, #"<a ="long value">"#,
                     #"<a title="   ">"#, #"<a 1b="long value">"#, #"<a -b="long value">"#,
                     #"<a x= href="long value">"#, "<a x=\n href=\"long value\">"] {
            #expect(compact(text).0 == text, "\(text)")
        }
    }

    /// Inside a value quoted with the same quote, the "opening" quote closes that value and
    /// libxml2 reads the filler as an attribute named `:`; the extractor notices and parses
    /// the full proxy, so the answer is the full proxy's.
    @Test func aValueReadAsANameSendsTheExtractorBackToTheFullProxy() throws {
        let html = #"<img c='<img src='ab cd' alt=x><a title=" > <img src="long value" y">l</a>"#
        let (out, _) = compact(html)
        #expect(out.contains("src=':'"))
        let attributes = try libxmlAttributeNames(Array(out.utf8))
        #expect(attributes.contains([":"]) || attributes.contains { $0.contains(":") })
        let full = try HTMLExtractor.extract(Array(html.utf8), contentType: nil, compacting: false)
        let compacted = try HTMLExtractor.extract(Array(html.utf8), contentType: nil, compacting: true)
        #expect(compacted.references == full.references)
    }

    /// The attribute names libxml2 reports for each start tag of `ascii`.
    private func libxmlAttributeNames(_ ascii: [UInt8]) throws -> [[String]] {
        var tags: [[String]] = []
        try ascii.withUnsafeBufferPointer { buffer in
            let scanner = try LibXMLElementScanner(ascii: buffer) { _, attributes, _ in
                var names: [String] = []
                var k = 0
                while let attributes, let name = attributes[k] {
                    names.append(String(cString: name))
                    k += 2
                }
                tags.append(names)
            }
            scanner.run()
        }
        return tags
    }

    @Test func mapsOffsetsBackToTheProxy() {
        let text = #"<p>some text</p><a href="long/path.html">link</a><img src=i.png>"#
        let (out, proxy) = compact(text)
        let bytes = Array(text.utf8)
        let outBytes = Array(out.utf8)
        // Every byte of the compact copy that is not a filler maps to the same byte.
        var fillerCount = 0
        for offset in outBytes.indices {
            let original = proxy.originalOffset(offset)
            if outBytes[offset] == bytes[original], proxy.originalOffset(offset + 1) == original + 1 { continue }
            fillerCount += 1
        }
        #expect(fillerCount == 3)  // "some text", "long/path.html", "link" (`i.png` is not quoted)
        #expect(proxy.originalOffset(outBytes.count) == bytes.count)
        // The end of each tag's attributes maps to the same place in the original.
        let compactEnd = outBytes.firstIndex(of: UInt8(ascii: ">"))!
        #expect(proxy.originalOffset(compactEnd) == bytes.firstIndex(of: UInt8(ascii: ">"))!)
    }

    /// Documents chosen to trip a wrong compaction: comments holding `>` and quotes, `>` in
    /// quoted values, unbalanced quotes, scripts that write markup, self-closed raw-text
    /// elements, entities, CDATA, processing instructions, raw-text elements and tag soup.
    static let trickyDocuments: [String] = [
        #"<!-- <a href="no.html"> > --> <a href="yes.html">y</a>"#,
        #"<!-- a -- > <img src="in-comment.png"> --> <img src="out.png">"#,
        #"<!--> <a href=a.html>a</a> --> <!---> <a href=b.html>b</a>"#,
        #"<p title="a > b" id='c > d'><a href="x.html">x</a></p>"#,
        #"<p title="unbalanced>text <a href="a.html">a</a> <img src='b.png'>"#,
        #"<p title='it's'><img src="q.png"> it's "quoted" <a href=z.html>z</a>"#,
        #"<script>var s = "</" + "script>"; document.write('<img src="w.png">');</script><img src="real.png">"#,
        #"<script/> <img src="after-selfclosed.png"> <script>x</script>"#,
        #"<style/> <style>a{background:url(s.png)}</style><link rel=stylesheet href=s.css>"#,
        #"<p>&lt;img src="entity.png"&gt; &amp;&amp; <img src="e&amp;f.png"></p>"#,
        #"<![CDATA[ <img src="cdata.png"> ]]> <img src="after.png">"#,
        #"<?php echo "<a href='pi.html'>"; ?> <a href="afterpi.html">p</a>"#,
        #"<textarea><a href="in-textarea.html"></textarea><a href="t.html">t</a>"#,
        #"<title>x <a href=nope.html> y</title><a href=ok.html>ok</a>"#,
        #"<a href=one.html title="x"y="z"><img src=two.png alt='x' '>"#,
        #"<div><a b="c" d = "e f" href = "spaced.html" >s</a></div>"#,
        #"<table background="bg.png"><tr><td background='td.png'>x</td></tr></table>"#,
        #"<a href="x.html"<img src="y.png">"#,
        #"<<a href="double.html">>>"#,
        #"<body style="background: url('b.png')"><div style="x: url(c.png)">x</div>"#,
        "<p>\r\n\t  <a\nhref=\"nl.html\"\n>n</a>\u{0C}<img\tsrc='tab.png'>",
        #"<meta http-equiv="refresh" content="0; url=next.html"><base href="/base/">"#,
        #"<img srcset="a.png 1x, b.png 2x" src="c.png"><source srcset='d.webp'>"#,
        #"<!DOCTYPE html><html><head><!--[if IE]><link href=ie.css rel=stylesheet><![endif]--></head></html>"#,
        #"<noscript><img src="ns.png"></noscript><iframe src="f.html"><a href=in-iframe.html></iframe>"#,
        #"text only, no tags at all -- but "quotes" and 'more' > and ] and ? and !"#,
        ##"<svg><use href="#i"/><image href="s.png"/></svg><a href="tail.html">"##,
        #"<a title='a=b' href="eq.html">e</a><a title="<" href="lt.html">l</a>"#,
        "<p>\u{E9}t\u{E9} <a href=\"caf\u{E9}.html\">caf\u{E9}</a> \u{1F600}</p>",
    ]

    @Test(arguments: trickyDocuments)
    func findsTheSameReferencesAsTheFullProxy(_ html: String) throws {
        let bytes = Array(html.utf8)
        let full = try HTMLExtractor.extract(bytes, contentType: nil, compacting: false)
        let compacted = try HTMLExtractor.extract(bytes, contentType: nil, compacting: true)
        #expect(compacted.references == full.references)
    }

    /// The tricky documents are worth comparing: most of them hold references.
    @Test func theTrickyDocumentsHoldReferences() throws {
        let holding = try Self.trickyDocuments.filter { try !HTMLExtractor.extract(Array($0.utf8)).references.isEmpty }
        #expect(holding.count >= 25)
    }

    /// Random tag soup from pieces that switch libxml2's states (quotes, comments, raw text,
    /// `>` and `<` in odd places): the same references with and without compaction.
    @Test func findsTheSameReferencesInRandomTagSoup() throws {
        let pieces = [
            "<a href=\"", "<img src='", "<a href=", "\"", "'", ">", "<", "</", "<!--", "-->", "--", "-", "!", "?>", "<?",
            "]]>", "<![CDATA[", "<script>", "</script>", "<style>", "</style>", "<textarea>", "</textarea>", "<title>",
            "</title>", " ", "  \n ", "=", " title=", " href=\"p.html\"", " src=", "x.png", "some words", "&amp;", "&lt;",
            "url(u.png)", " style=\"background:url(b.png)\"", "<p>", "</p>", "<div class=\"c\">", "/>", "<script/>",
            "<link rel=stylesheet href=s.css>", "<base href=/b/>", " a=b=\"c d\"", "\u{E9}", "<iframe src=f.html>",
        ]
        var generator = SplitMix64(seed: 0x6D74_6C73)
        var compared = 0, withReferences = 0
        for _ in 0..<3000 {
            var html = ""
            for _ in 0..<(4 + Int(generator.next() % 40)) { html += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let bytes = Array(html.utf8)
            let full = try HTMLExtractor.extract(bytes, contentType: nil, compacting: false)
            let compacted = try HTMLExtractor.extract(bytes, contentType: nil, compacting: true)
            #expect(compacted.references == full.references, "\(html)")
            if compacted.references != full.references { break }
            compared += 1
            if !full.references.isEmpty { withReferences += 1 }
        }
        #expect(compared == 3000)
        #expect(withReferences > 1500)
    }

    /// The committed fuzz corpus of the `html-rewrite` target, which holds what fuzzing found.
    @Test func findsTheSameReferencesInTheFuzzCorpus() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fuzz/Corpora/html-rewrite").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count >= 20)
        for file in files {
            let bytes = try Array(Data(contentsOf: directory.appendingPathComponent(file)))
            let full = try HTMLExtractor.extract(bytes, contentType: nil, compacting: false)
            let compacted = try HTMLExtractor.extract(bytes, contentType: nil, compacting: true)
            #expect(compacted.references == full.references, "\(file)")
        }
    }
}

