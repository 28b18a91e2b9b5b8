import Foundation
import Testing
@testable import MirrorDocument

@Suite struct RobustnessTests {
    static let malformed: [[UInt8]] = [
        Array("<a href=x.html><img src=y.png<p>unclosed <div><span>".utf8),
        Array("<img src=\"a.png".utf8),
        Array("<a href='unterminated".utf8),
        Array("<".utf8),
        Array("<img".utf8),
        [0x3C, 0x61, 0x20, 0x68, 0x72, 0x65, 0x66, 0x3D, 0x00, 0x78, 0x3E, 0x00, 0x00, 0x3C, 0x69, 0x6D, 0x67, 0x20, 0x73, 0x72, 0x63, 0x3D, 0x7A, 0x3E],
        [0x3C, 0x61, 0x20, 0x68, 0x72, 0x65, 0x66, 0x3D, 0x22, 0xFF, 0xFE, 0xC3, 0x28, 0x22, 0x3E, 0x80, 0xBF],
        Array("</a></b><a href=ok.html>".utf8),
        Array("<svg><style>a{b:url(".utf8),
        Array("<div style=\"background:url('x\">".utf8),
        Array("<!-- <a href=in-comment> --><a href=after.html>".utf8),
        Array("<![CDATA[<a href=cdata>]]><a @click=x href=vue.html :to=y>".utf8),
        [],
    ]

    @Test(arguments: malformed)
    func malformedInputDoesNotCrashAndSpansAreInBounds(_ bytes: [UInt8]) throws {
        let extraction = try HTMLExtractor.extract(bytes)
        for r in extraction.references {
            #expect(r.span.lowerBound >= 0 && r.span.upperBound <= extraction.source.count)
        }
        #expect(try ReferenceRewriter.rewrite(extraction) { _ in nil } == bytes)
        let out = try ReferenceRewriter.rewrite(extraction) { "R" + $0.value }
        #expect((out != bytes) == !extraction.references.isEmpty)
    }

    @Test func specificMalformedCasesStillFindTheirLinks() throws {
        #expect(try HTMLExtractor.extract(Self.malformed[7]).references.map(\.value) == ["ok.html"])
        #expect(try HTMLExtractor.extract(Self.malformed[10]).references.map(\.value) == ["after.html"])
        #expect(try HTMLExtractor.extract(Self.malformed[11]).references.map(\.value).contains("vue.html"))
        #expect(try HTMLExtractor.extract(Self.malformed[5]).references.map(\.value).contains("z"))
    }

    @Test func deepNestingDoesNotCrash() throws {
        let depth = 10_000
        let html = String(repeating: "<div>", count: depth) + "<a href=deep.html>d</a>" + String(repeating: "</div>", count: depth)
            + "<img src=end.png>"
        let bytes = Array(html.utf8)
        let extraction = try HTMLExtractor.extract(bytes)
        #expect(extraction.references.map(\.value) == ["deep.html", "end.png"])
        #expect(try ReferenceRewriter.rewrite(extraction) { _ in nil } == bytes)
    }

    /// A typical 20 KB page; prints the extraction rate (not asserted: machines differ).
    @Test func extractionThroughput() throws {
        var html = "<!DOCTYPE html><html><head><meta charset=utf-8><title>Bench</title>"
        html += #"<link rel=stylesheet href="/css/site.css?v=3"><script src="/js/app.js" defer></script></head><body>"#
        var i = 0
        while html.utf8.count < 20_000 {
            html += #"<div class="card c\#(i)"><h2><a href="/articles/\#(i).html?ref=home&amp;x=1">Article \#(i)</a></h2>"#
            html += #"<p class="lead">Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>"#
            html += #"<img src="/img/\#(i).jpg" srcset="/img/\#(i)@2x.jpg 2x" alt="pic \#(i)" width="320" height="200"></div>"#
            i += 1
        }
        html += "</body></html>"
        let bytes = Array(html.utf8)
        let rounds = 200
        var count = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds { count += try HTMLExtractor.extract(bytes).references.count }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let rate = Double(bytes.count * rounds) / seconds / 1_000_000
        print("HTML extraction: \(bytes.count) bytes x \(rounds) in \(seconds) s = \(rate) MB/s, \(count / rounds) refs/page")
        #expect(count / rounds == 2 + 3 * i)
    }
}
