import Testing
@testable import MirrorDocument

/// `SplicedDocument`: a rewrite handed to the file writer as pieces (the original's runs and
/// the new bytes) must be the assembled rewrite, byte for byte (issue #27).
@Suite struct SplicedDocumentTests {
    /// A site at `span` written as an unquoted attribute value.
    private func site(_ span: Range<Int>, syntax: Reference.Syntax = .htmlAttribute(quote: .none)) -> ReferenceSite {
        ReferenceSite(Reference(kind: .link, element: "a", attribute: "href", value: "", span: span, isRequisite: false,
                                syntax: syntax))!
    }

    /// The pieces joined, as a file writer would write them.
    private func joined(_ document: SplicedDocument) -> [UInt8] {
        document.withPieces { pieces in
            #expect(pieces.allSatisfy { !$0.isEmpty })
            return pieces.flatMap { Array($0) }
        }
    }

    @Test func piecesAreTheAssembledRewriteForEveryKindOfEdit() throws {
        let html = Array("""
            <html><head><base href="/b/"><link rel=stylesheet href="s.css" integrity="sha384-x">
            <script integrity="sha256-y" src="j.js"></script></head><body>
            <img src="a.png" srcset="a.png 1x, b%20c.png 2x" style="background: url('q(1).png')">
            <a href="x.html">x</a> <a href="keep.html">k</a><a href="https://other.example/z">z</a></body></html>
            """.utf8)
        let extraction = try HTMLExtractor.extract(html)
        let options = ReferenceRewriter.Options(dropIntegrityOfRewritten: true, neutraliseBase: true)
        let newURL: (Reference) -> String? = { $0.value == "keep.html" ? nil : "local/" + $0.value + "#f" }
        let spliced = try ReferenceRewriter.splice(extraction, options: options, replacement: newURL)
        let assembled = try ReferenceRewriter.rewrite(extraction, options: options, replacement: newURL)
        #expect(joined(spliced) == assembled)
        #expect(spliced.assembled() == assembled)
        #expect(spliced.count == assembled.count)
        #expect(spliced.changesSource)
        #expect(spliced.source == html)
    }

    /// The first and last bytes edited, adjacent edits, an insertion and a deletion: runs of
    /// the original between them are never empty pieces, and nothing is lost at the ends.
    @Test func editsAtTheEdgesAndSideBySide() throws {
        let source = Array("<a href=x>y</a>".utf8)
        for (sites, deletions, expected) in [
            ([0..<1], [Range<Int>](), "Xa href=x>y</a>"),
            ([14..<15], [], "<a href=x>y</aZ"),
            ([8..<9, 9..<10], [], "<a href=XZy</a>"),
            ([], [0..<15], ""),
            ([8..<9], [3..<7], "<a =X>y</a>"),
        ] as [([Range<Int>], [Range<Int>], String)] {
            let siteValues = sites.map { site($0) }
            let letters = ["X", "Z"]
            let spliced = try ReferenceRewriter.splice(source, sites: siteValues, deleting: deletions) { index in
                sites[index].lowerBound == 14 ? "Z" : letters[index]
            }
            #expect(String(decoding: joined(spliced), as: UTF8.self) == expected)
            #expect(String(decoding: spliced.assembled(), as: UTF8.self) == expected)
            #expect(spliced.count == expected.utf8.count)
        }
    }

    @Test func noEditOrEditsThatChangeNothingLeaveTheSourceAsItIs() throws {
        let css = Array("a{background:url(img/a.png)} b{background:url(img/b.png)}".utf8)
        let untouched = try ReferenceRewriter.spliceCSS(css) { _ in nil }
        #expect(!untouched.changesSource)
        #expect(joined(untouched) == css)
        #expect(untouched.withPieces { $0.count } == 1)
        // A replacement written exactly as the bytes in place is not an edit of the site plan.
        let sites = [site(17..<26, syntax: .css(quote: .none, attributeQuote: nil))]
        let same = try ReferenceRewriter.splice(css, sites: sites, deleting: []) { _ in "img/a.png" }
        #expect(!same.changesSource)
        #expect(joined(same) == css)
        let changed = try ReferenceRewriter.splice(css, sites: sites, deleting: []) { _ in "img/c.png" }
        #expect(changed.changesSource)
        #expect(String(decoding: joined(changed), as: UTF8.self) == "a{background:url(img/c.png)} b{background:url(img/b.png)}")
    }

    @Test func anEmptyDocumentHasNoPieces() throws {
        let spliced = try ReferenceRewriter.spliceCSS([]) { _ in "x" }
        #expect(spliced.withPieces { $0.count } == 0)
        #expect(spliced.count == 0)
        #expect(!spliced.changesSource)
    }

    /// Thousands of edits (a page like Node.js's `all.html`): the pieces are still the rewrite.
    @Test func manyEditsInOneLargeDocument() throws {
        var text = ""
        for index in 0..<5_000 { text += "<p>text \(index) <a href=\"page\(index % 97).html#s\(index)\">link</a></p>\n" }
        let html = Array(text.utf8)
        let extraction = try HTMLExtractor.extract(html)
        #expect(extraction.references.count == 5_000)
        let newURL: (Reference) -> String? = { $0.value.hasPrefix("page1") ? nil : "../docs/" + $0.value }
        let spliced = try ReferenceRewriter.splice(extraction, replacement: newURL)
        #expect(joined(spliced) == (try ReferenceRewriter.rewrite(extraction, replacement: newURL)))
        #expect(spliced.withPieces { $0.count } > 2 * 1_024)
    }
}
