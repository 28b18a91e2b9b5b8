import MirrorCore
import MirrorDocument
@testable import MirrorFuzzing
import MirrorServer
import MirrorStore
import Testing

/// Each invariant checker really detects a broken output: the fuzz targets are only as good
/// as these checks.
@Suite struct InvariantCheckerTests {
    static let site = WebURL("https://site.example/")!
    static let mapper = PathMapper(primaryOrigin: site)

    // MARK: Splice

    @Test func spliceCheckAcceptsAFaithfulRewrite() throws {
        let source = Array("<a href=x>y</a>".utf8)
        let edits = [Rewrite(span: 8..<9, replacement: Array("zz".utf8))]
        let output = try SpliceRewriter.apply(edits, to: source)
        #expect(SpliceCheck.check(target: "t", source: source, edits: edits, output: output) == nil)
    }

    @Test(arguments: [
        ("<a href=zz>y</a>!", "outside"),  // a byte added after the last edit
        ("<b href=zz>y</a>", "outside"),   // a byte changed before the edit
        ("<a href=zq>y</a>", "replacement"),
        ("<a href=zz>y</a", "outside"),    // the tail cut short
    ])
    func spliceCheckDetectsAChangeOutsideTheSpans(output: String, expected: String) {
        let source = Array("<a href=x>y</a>".utf8)
        let edits = [Rewrite(span: 8..<9, replacement: Array("zz".utf8))]
        let violation = SpliceCheck.check(target: "t", source: source, edits: edits, output: Array(output.utf8))
        #expect(violation?.invariant.contains(expected) == true, "\(String(describing: violation))")
    }

    @Test func spliceCheckDetectsOverlappingAndOutOfBoundsEdits() {
        let source = Array("abcdef".utf8)
        let overlapping = [Rewrite(span: 1..<4, replacement: []), Rewrite(span: 3..<5, replacement: [])]
        #expect(SpliceCheck.check(target: "t", source: source, edits: overlapping, output: [])?.invariant.contains("overlap") == true)
        let outside = [Rewrite(span: 4..<9, replacement: [])]
        #expect(SpliceCheck.check(target: "t", source: source, edits: outside, output: [])?.invariant.contains("inside") == true)
        #expect(SpliceCheck.checkOrderedSpans(target: "t", what: "spans", spans: [3..<4, 1..<2], count: 6) != nil)
        #expect(SpliceCheck.checkOrderedSpans(target: "t", what: "spans", spans: [1..<2, 3..<4], count: 6) == nil)
    }

    // MARK: Paths

    @Test(arguments: [
        "../etc/passwd", "/abs", "a//b", "a/./b", "a/nul\u{0}", "a\\b", "a/b.", "a/b ", "con.txt", "a/LPT1",
        "a:b", "a?b", "^x0123.bin", String(repeating: "a", count: 201),
    ])
    func pathCheckDetectsAnUnsafePath(path: String) {
        #expect(PathChecks.check(path: path, mapper: Self.mapper, url: Self.site) != nil, "accepted \(path)")
    }

    @Test func pathCheckAcceptsMappedPaths() {
        for reference in ["/", "/a/b.css", "/search?q=1", "/A.png", "//cdn.example/x.js"] {
            let url = Self.site.resolve(reference)!
            let path = Self.mapper.relativePath(for: url, contentType: "text/html")
            #expect(PathChecks.check(path: path, mapper: Self.mapper, url: url) == nil, "\(reference) → \(path)")
        }
    }

    @Test func distinctCheckDetectsCollisionsAndFileDirectoryClashes() {
        let a = Self.site.resolve("/a")!, b = Self.site.resolve("/b")!
        #expect(PathChecks.checkDistinct(a, "x.html", b, "X.HTML") != nil)
        #expect(PathChecks.checkDistinct(a, "x", b, "x/y.html") != nil)
        #expect(PathChecks.checkDistinct(a, "x.html", b, "y.html") == nil)
        #expect(PathChecks.checkDistinct(a, "x.html", Self.site.resolve("/a#f")!, "x.html") == nil)
    }

    @Test func linkCheckDetectsAWrongLink() {
        #expect(PathChecks.checkLink("../c/d.html", from: "a/b.html", to: "c/d.html") == nil)
        #expect(PathChecks.checkLink("c/d.html", from: "a/b.html", to: "c/d.html") != nil)
        #expect(PathChecks.checkLink("../../d.html", from: "a/b.html", to: "d.html") != nil)
        #expect(PathChecks.checkLink("x:y.html", from: "b.html", to: "x:y.html") != nil)
        #expect(PathChecks.checkLink("a%20b.html", from: "b.html", to: "a b.html") == nil)
    }

    // MARK: CSS tokens

    @Test func tokenCoverageDetectsGapsOverlapsAndEmptyTokens() {
        let css = Array("a{b:c}".utf8)
        let good = [(0..<1, 0..<1), (1..<2, 1..<2), (2..<3, 2..<3), (3..<4, 3..<4), (4..<5, 4..<5), (5..<6, 5..<6)]
        #expect(CSSTokenCoverage.check(css, tokens: good.map { ($0.0, $0.1) }) == nil)
        #expect(CSSTokenCoverage.check(css, tokens: good.dropLast().map { ($0.0, $0.1) }) != nil, "uncovered tail")
        #expect(CSSTokenCoverage.check(css, tokens: [(0..<2, 0..<2), (1..<6, 1..<6)]) != nil, "overlap")
        #expect(CSSTokenCoverage.check(css, tokens: [(0..<1, 0..<1), (2..<6, 2..<6)]) != nil, "gap that is no comment")
        #expect(CSSTokenCoverage.check(css, tokens: [(0..<0, 0..<0), (0..<6, 0..<6)]) != nil, "empty token")
        #expect(CSSTokenCoverage.check(css, tokens: [(0..<3, 0..<4), (3..<6, 3..<6)]) != nil, "content outside token")
        let commented = Array("/*x*/a/**/b/*".utf8)
        #expect(CSSTokenCoverage.check(commented, tokens: [(5..<6, 5..<6), (10..<11, 10..<11)]) == nil)
        #expect(CSSTokenCoverage.check(commented, tokens: [(5..<6, 5..<6)]) != nil)
        #expect(CSSTokenCoverage.check(css) == nil, "the real tokenizer")
    }

    // MARK: srcset

    @Test func srcsetCheckDetectsBadCandidates() {
        let bytes = Array("a.png 1x, b.png 2x".utf8)
        let good = SrcsetParser.parse("a.png 1x, b.png 2x")
        #expect(SrcsetHarness.checkCandidates(good, in: bytes) == nil)
        var bad = good
        bad[1].span = 3..<12  // overlaps the first and holds a space
        #expect(SrcsetHarness.checkCandidates(bad, in: bytes) != nil)
        bad = good
        bad[0].span = 0..<9  // ends with a comma... and holds a space
        #expect(SrcsetHarness.checkCandidates(bad, in: bytes) != nil)
        bad = good
        bad[1].span = 10..<40
        #expect(SrcsetHarness.checkCandidates(bad, in: bytes) != nil)
    }

    // MARK: HTML references

    @Test func referenceCheckDetectsDisorderAndSpansOutsideTheirAttribute() throws {
        let html = Array(#"<img src="a.png" srcset="b.png 1x">"#.utf8)
        let references = try HTMLExtractor.extract(html).references
        #expect(references.count == 2)
        #expect(HTMLRewriteHarness.checkReferences(references, count: html.count) == nil)
        #expect(HTMLRewriteHarness.checkReferences(references.reversed(), count: html.count) != nil)
        var outside = references
        outside[0].attributeSpan = 0..<3
        #expect(HTMLRewriteHarness.checkReferences(outside, count: html.count) != nil)
    }

    @Test func readBackExpectsOnlyTheDocumentedEscaping() {
        #expect(ReadBack.expected("a b,", syntax: .srcsetCandidate(attributeQuote: .double)) == "a%20b%2C")
        #expect(ReadBack.expected("it's", syntax: .metaRefresh(attributeQuote: .double, urlQuote: .single)) == "it%27s")
        #expect(ReadBack.expected("a b", syntax: .htmlAttribute(quote: .double)) == "a b")
    }

    // MARK: HTTP

    @Test func limitCheckDetectsAnOversizedRequest() {
        let limits = HTTPParserLimits(requestLineLength: 20, headerSectionSize: 40, headerCount: 1)
        let small = HTTPRequestHead(method: "GET", target: "/", path: "/", query: nil, version: .http1_1,
                                    headers: HTTPHeaders([("Host", "x")]), keepAlive: true)
        #expect(HTTPRequestHarness.checkLimits(small, limits: limits) == nil)
        var long = small
        long.target = "/" + String(repeating: "a", count: 20)
        #expect(HTTPRequestHarness.checkLimits(long, limits: limits) != nil)
        var many = small
        many.headers = HTTPHeaders([("Host", "x"), ("A", "b")])
        #expect(HTTPRequestHarness.checkLimits(many, limits: limits) != nil)
        var big = small
        big.headers = HTTPHeaders([("Host", String(repeating: "x", count: 40))])
        #expect(HTTPRequestHarness.checkLimits(big, limits: limits) != nil)
    }

    @Test func chunkingComparisonDetectsADifference() {
        let head = HTTPRequestHead(method: "GET", target: "/", path: "/", query: nil, version: .http1_1,
                                   headers: HTTPHeaders(), keepAlive: true)
        let limits = HTTPParserLimits()
        let one = HTTPRequestHarness.Outcome(requests: [head])
        #expect(HTTPRequestHarness.compare(one, one, limits: limits) == nil)
        #expect(HTTPRequestHarness.compare(one, .init(), limits: limits) != nil)
        let tooLong = HTTPRequestHarness.Outcome(failure: .requestLineTooLong(limit: 1), finished: true)
        let badEnd = HTTPRequestHarness.Outcome(failure: .invalidLineEnding, finished: true)
        let badMethod = HTTPRequestHarness.Outcome(failure: .invalidMethod, finished: true)
        #expect(HTTPRequestHarness.compare(tooLong, badEnd, limits: limits) == nil, "a size limit may come first")
        #expect(HTTPRequestHarness.compare(badMethod, badEnd, limits: limits) != nil)
    }

    @Test func confinementCheckDetectsAnEscapingSegment() {
        #expect(RequestPathChecks.checkConfined(RequestPath(segments: ["a", "b"], trailingSlash: false), raw: "/a/b") == nil)
        for segment in ["..", ".", "", "a/b", "a\\b", "a\u{0}"] {
            #expect(RequestPathChecks.checkConfined(RequestPath(segments: ["a", segment], trailingSlash: false), raw: "x") != nil, "\(segment)")
        }
        #expect(RequestPathChecks.modelSegments("/a/%2e%2e/b") == [Array("b".utf8)])
        #expect(RequestPathChecks.modelSegments("/..") == nil)
    }

    /// Found by the fuzzer: `hasPrefix("/")` compares Characters, and `/` followed by a
    /// combining mark is one Character, so such a path was refused as not absolute.
    @Test func requestPathStartingWithACombiningMarkIsAbsolute() throws {
        let path = try RequestPath.parse("/\u{366}aat/\u{301}x").get()
        #expect(path.segments == ["\u{366}aat", "\u{301}x"])
        #expect(RequestPathChecks.check("/\u{35A}%2E/1") == nil)
        #expect(RequestPathChecks.check("/\u{366}aat") == nil)
    }

    @Test func boundedCheckDetectsAParserThatWaitsForever() {
        var parser = HTTPRequestParser(limits: HTTPRequestHarness.smallLimits)
        #expect(HTTPRequestHarness.checkBounded(&parser, limits: HTTPRequestHarness.smallLimits) == nil)
        // A parser with huge limits keeps buffering: the check, given the small limits, notices.
        var lenient = HTTPRequestParser(limits: HTTPParserLimits(requestLineLength: 1 << 30, headerSectionSize: 1 << 30))
        #expect(HTTPRequestHarness.checkBounded(&lenient, limits: HTTPRequestHarness.smallLimits) != nil)
    }

    // MARK: The entry point

    @Test func violationsNameTheTargetAndTheEvidence() {
        let violation = FuzzViolation(target: "css", invariant: "x holds", evidence: Evidence.bytes([0x41, 0x00, 0xFF]))
        #expect(violation.description.contains("[css] invariant broken: x holds"))
        #expect(violation.evidence == #""A\x00\xff""#)
        #expect(FuzzInput.splitTrailer([1, 0xFF, 0, 2]).trailer == [2])
        #expect(FuzzInput.splitTrailer([1, 2]).trailer == nil)
    }
}
