import Testing
@testable import MirrorDocument

@Suite struct SrcsetParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var srcset: String
        var urls: [String]
        var descriptors: [[String]]
        var testDescription: String { srcset }
    }

    static let cases: [Case] = [
        Case(srcset: "a.png", urls: ["a.png"], descriptors: [[]]),
        Case(srcset: "a.png 1x, b.png 2x", urls: ["a.png", "b.png"], descriptors: [["1x"], ["2x"]]),
        Case(srcset: "small.jpg 480w,large.jpg 1080w", urls: ["small.jpg", "large.jpg"], descriptors: [["480w"], ["1080w"]]),
        Case(srcset: "a,b.png 1x, c.png", urls: ["a,b.png", "c.png"], descriptors: [["1x"], []]),
        Case(srcset: "a.png,, b.png", urls: ["a.png", "b.png"], descriptors: [[], []]),
        Case(srcset: "\n  one.png 1x,\n  two.png 2x\n", urls: ["one.png", "two.png"], descriptors: [["1x"], ["2x"]]),
        Case(srcset: "data:image/png;base64,iVBORw0KGgo= 1x, b.png 2x", urls: ["data:image/png;base64,iVBORw0KGgo=", "b.png"], descriptors: [["1x"], ["2x"]]),
        Case(srcset: "x.png 100w 2x", urls: ["x.png"], descriptors: [["100w", "2x"]]),
        Case(srcset: "x.png (a, b) 1x, y.png", urls: ["x.png", "y.png"], descriptors: [["(a, b)", "1x"], []]),
        Case(srcset: "", urls: [], descriptors: []),
        Case(srcset: " , ,", urls: [], descriptors: []),
    ]

    @Test(arguments: cases)
    func parsesCandidates(_ c: Case) {
        let bytes = Array(c.srcset.utf8)
        let candidates = SrcsetParser.parse(c.srcset)
        #expect(candidates.map { String(decoding: bytes[$0.span], as: UTF8.self) } == c.urls)
        #expect(candidates.map(\.descriptors) == c.descriptors)
    }

    @Test func srcsetInHTMLReportsEachCandidateWithDecodedValue() throws {
        let html = "<img srcset=\"a.png?x=1&amp;y=2 1x,\n b,c.png 2x\" src=fallback.png>"
        let extraction = try HTMLExtractor.extract(Array(html.utf8))
        let set = extraction.references.filter { $0.attribute == "srcset" }
        #expect(set.map(\.value) == ["a.png?x=1&y=2", "b,c.png"])
        #expect(set.map { raw(extraction, $0) } == ["a.png?x=1&amp;y=2", "b,c.png"])
        #expect(set.allSatisfy { $0.syntax == .srcsetCandidate(attributeQuote: .double) })
        #expect(extraction.references.contains { $0.attribute == "src" && $0.value == "fallback.png" })
    }
}
