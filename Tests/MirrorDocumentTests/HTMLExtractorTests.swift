import Testing
@testable import MirrorDocument

/// Finds the single reference with this element/attribute in `html` and checks its span.
func extractOne(_ html: String, contentType: String? = nil) throws -> (HTMLExtraction, [Reference]) {
    let extraction = try HTMLExtractor.extract(Array(html.utf8), contentType: contentType)
    return (extraction, extraction.references)
}

func raw(_ extraction: HTMLExtraction, _ reference: Reference) -> String {
    String(decoding: extraction.source[reference.span], as: UTF8.self)
}

@Suite struct HTMLExtractorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var html: String
        var kind: Reference.Kind
        var element: String
        var attribute: String
        var value: String
        var raw: String
        var requisite: Bool
        var testDescription: String { html }
    }

    static let cases: [Case] = [
        Case(html: #"<a href="page.html">x</a>"#, kind: .link, element: "a", attribute: "href", value: "page.html", raw: "page.html", requisite: false),
        Case(html: #"<map><area shape=rect href=area.html></map>"#, kind: .link, element: "area", attribute: "href", value: "area.html", raw: "area.html", requisite: false),
        Case(html: #"<link rel="stylesheet" href="s.css">"#, kind: .stylesheet, element: "link", attribute: "href", value: "s.css", raw: "s.css", requisite: true),
        Case(html: #"<link rel="shortcut icon" href='/favicon.ico'>"#, kind: .icon, element: "link", attribute: "href", value: "/favicon.ico", raw: "/favicon.ico", requisite: true),
        Case(html: #"<link rel=apple-touch-icon href=touch.png>"#, kind: .icon, element: "link", attribute: "href", value: "touch.png", raw: "touch.png", requisite: true),
        Case(html: #"<link rel=preload as=font href="f.woff2" crossorigin>"#, kind: .preload, element: "link", attribute: "href", value: "f.woff2", raw: "f.woff2", requisite: true),
        Case(html: #"<link rel=modulepreload href="m.js">"#, kind: .script, element: "link", attribute: "href", value: "m.js", raw: "m.js", requisite: true),
        Case(html: #"<link rel=prefetch href="next.html">"#, kind: .preload, element: "link", attribute: "href", value: "next.html", raw: "next.html", requisite: false),
        Case(html: #"<link rel=manifest href="app.webmanifest">"#, kind: .manifest, element: "link", attribute: "href", value: "app.webmanifest", raw: "app.webmanifest", requisite: true),
        Case(html: #"<link rel=alternate type=application/rss+xml href="feed.xml">"#, kind: .other, element: "link", attribute: "href", value: "feed.xml", raw: "feed.xml", requisite: false),
        Case(html: #"<p><img alt="a > b" src="i.png?a=1&amp;b=2"></p>"#, kind: .image, element: "img", attribute: "src", value: "i.png?a=1&b=2", raw: "i.png?a=1&amp;b=2", requisite: true),
        Case(html: #"<IMG SRC = "  spaced.png  ">"#, kind: .image, element: "img", attribute: "src", value: "spaced.png", raw: "spaced.png", requisite: true),
        Case(html: #"<picture><source srcset="p.webp" type="image/webp"></picture>"#, kind: .image, element: "source", attribute: "srcset", value: "p.webp", raw: "p.webp", requisite: true),
        Case(html: #"<video><source src="v.mp4" type="video/mp4"></video>"#, kind: .media, element: "source", attribute: "src", value: "v.mp4", raw: "v.mp4", requisite: true),
        Case(html: #"<video src="movie.webm"></video>"#, kind: .media, element: "video", attribute: "src", value: "movie.webm", raw: "movie.webm", requisite: true),
        Case(html: #"<video poster="poster.jpg"></video>"#, kind: .poster, element: "video", attribute: "poster", value: "poster.jpg", raw: "poster.jpg", requisite: true),
        Case(html: #"<audio src="a.ogg"></audio>"#, kind: .media, element: "audio", attribute: "src", value: "a.ogg", raw: "a.ogg", requisite: true),
        Case(html: #"<video><track kind=subtitles src="t.vtt"></video>"#, kind: .media, element: "track", attribute: "src", value: "t.vtt", raw: "t.vtt", requisite: true),
        Case(html: #"<script src="app.js"></script>"#, kind: .script, element: "script", attribute: "src", value: "app.js", raw: "app.js", requisite: true),
        Case(html: #"<iframe src="frame.html"></iframe>"#, kind: .frame, element: "iframe", attribute: "src", value: "frame.html", raw: "frame.html", requisite: true),
        Case(html: #"<frameset><frame src="f.html"></frameset>"#, kind: .frame, element: "frame", attribute: "src", value: "f.html", raw: "f.html", requisite: true),
        Case(html: #"<embed src="e.swf">"#, kind: .embed, element: "embed", attribute: "src", value: "e.swf", raw: "e.swf", requisite: true),
        Case(html: #"<object data="o.svg" type="image/svg+xml"></object>"#, kind: .object, element: "object", attribute: "data", value: "o.svg", raw: "o.svg", requisite: true),
        Case(html: #"<form><input type="IMAGE" src="btn.png"></form>"#, kind: .image, element: "input", attribute: "src", value: "btn.png", raw: "btn.png", requisite: true),
        Case(html: #"<body background="bg.gif"></body>"#, kind: .background, element: "body", attribute: "background", value: "bg.gif", raw: "bg.gif", requisite: true),
        Case(html: #"<table background=t.gif><tr><td background='td.gif'>x</td></tr></table>"#, kind: .background, element: "td", attribute: "background", value: "td.gif", raw: "td.gif", requisite: true),
        Case(html: #"<table><tr><th background="th.gif">x</th></tr></table>"#, kind: .background, element: "th", attribute: "background", value: "th.gif", raw: "th.gif", requisite: true),
        Case(html: ##"<svg><use href="sprite.svg#icon"/></svg>"##, kind: .svgUse, element: "use", attribute: "href", value: "sprite.svg#icon", raw: "sprite.svg#icon", requisite: true),
        Case(html: #"<svg viewBox="0 0 1 1"><use xlink:href="sprite.svg#i"></use></svg>"#, kind: .svgUse, element: "use", attribute: "xlink:href", value: "sprite.svg#i", raw: "sprite.svg#i", requisite: true),
        Case(html: #"<svg><image href="pic.png" width="1"/></svg>"#, kind: .svgImage, element: "image", attribute: "href", value: "pic.png", raw: "pic.png", requisite: true),
        Case(html: #"<svg><image xlink:href='pic2.png'/></svg>"#, kind: .svgImage, element: "image", attribute: "xlink:href", value: "pic2.png", raw: "pic2.png", requisite: true),
        Case(html: #"<svg><a xlink:href="diagram.html"><rect width="1" height="1"/></a></svg>"#, kind: .link, element: "a", attribute: "xlink:href", value: "diagram.html", raw: "diagram.html", requisite: false),
        Case(html: #"<form action="/submit?x=1"></form>"#, kind: .formAction, element: "form", attribute: "action", value: "/submit?x=1", raw: "/submit?x=1", requisite: false),
        Case(html: #"<head><base href="https://example.com/dir/"></head>"#, kind: .base, element: "base", attribute: "href", value: "https://example.com/dir/", raw: "https://example.com/dir/", requisite: false),
        Case(html: #"<noscript><img src="ns.png"></noscript>"#, kind: .image, element: "img", attribute: "src", value: "ns.png", raw: "ns.png", requisite: true),
        Case(html: #"<template><img src="tpl.png"></template>"#, kind: .image, element: "img", attribute: "src", value: "tpl.png", raw: "tpl.png", requisite: true),
        Case(html: #"<a title="<a x" href=tricky.html>t</a>"#, kind: .link, element: "a", attribute: "href", value: "tricky.html", raw: "tricky.html", requisite: false),
        Case(html: #"<a href=?q=a&b=c>bare</a>"#, kind: .link, element: "a", attribute: "href", value: "?q=a&b=c", raw: "?q=a&b=c", requisite: false),
        Case(html: #"<a href="x?a=1&copy=2&#x41;&lt;">e</a>"#, kind: .link, element: "a", attribute: "href", value: "x?a=1&copy=2A<", raw: "x?a=1&copy=2&#x41;&lt;", requisite: false),
        Case(html: "<a\nhref\n=\n'multi.html'\n>m</a>", kind: .link, element: "a", attribute: "href", value: "multi.html", raw: "multi.html", requisite: false),
    ]

    @Test(arguments: cases)
    func extractsElementAttribute(_ c: Case) throws {
        let (extraction, refs) = try extractOne(c.html)
        let matching = refs.filter { $0.element == c.element && $0.attribute == c.attribute }
        #expect(matching.count == 1, "refs: \(refs)")
        let r = try #require(matching.first)
        #expect(r.kind == c.kind)
        #expect(r.value == c.value)
        #expect(raw(extraction, r) == c.raw)
        #expect(r.isRequisite == c.requisite)
    }

    @Test(arguments: [
        "<!-- <img src=comment.png> -->",
        "<script>document.write('<img src=script.png>')</script>",
        "<style>/* <img src=style.png> */</style>",
        "<textarea><img src=textarea.png></textarea>",
        "<img src>",
        "<img src=''>",
        "<a name=anchor>no href</a>",
        // Fragment-only values point into the document itself, and no rewrite changes them.
        ##"<a href="#top">top</a><a href='#s'>s</a><a href=#u>u</a>"##,
        ##"<svg><use href="#icon"/><a xlink:href=" #x">x</a></svg><img src="#i">"##,
    ])
    func ignoresNonReferences(_ html: String) throws {
        let (_, refs) = try extractOne(html)
        #expect(refs.isEmpty, "refs: \(refs)")
    }
}

extension HTMLExtractorTests {
    /// A fragment-only value is left out, but not a `<base href>` (it decides how the others
    /// resolve), nor the other links of the same tag, nor a value that only decodes to `#`.
    @Test func fragmentOnlyValuesAreNotReported() throws {
        let html = ##"<base href="#b"><a href="#x" style="background:url(bg.png)">s</a>"##
            + ##"<a href="#x" xlink:href="page.html">p</a><a href="&#35;e">e</a><a href="p.html#frag">f</a>"##
        let (_, refs) = try extractOne(html)
        #expect(refs.map(\.value) == ["#b", "bg.png", "page.html", "#e", "p.html#frag"])
        #expect(refs.map(\.kind) == [.base, .cssURL, .link, .link, .link])
    }

    /// An `href` links from any element without a rule of its own, as wget2 and archiving
    /// crawlers read it: gtk-doc's unresolved cross-references (`<GTKDOCLINK HREF="…">`) and
    /// custom elements. Known elements keep their own rules (`<img href>` is no image).
    @Test func anHrefOnAnElementWithoutARuleIsALink() throws {
        let html = ##"<p>See <GTKDOCLINK HREF="arcbox">GArcBox</GTKDOCLINK> and <my-card href='/cards/1'>c</my-card>"##
            + ##"<my-very-long-custom-element-name href=long.html></my-very-long-custom-element-name>"##
            + ##"<x-el href="#here">h</x-el><img src=i.png href=not-a-link.html><imagex src=no.png></p>"##
        let (extraction, refs) = try extractOne(html)
        #expect(refs.map(\.value) == ["arcbox", "/cards/1", "long.html", "i.png"])
        #expect(refs.map(\.kind) == [.link, .link, .link, .image])
        #expect(refs.map(\.isRequisite) == [false, false, false, true])
        #expect(raw(extraction, refs[0]) == "arcbox")
    }

    /// Attribute names are compared by their lowercased bytes, whatever their length: the first
    /// of two spellings of one name wins (as in browsers and libxml2), names of more than 16
    /// bytes stay apart from their prefixes, and a tag whose long names repeat is still found.
    @Test func repeatedAndLongAttributeNamesKeepTheFirstValue() throws {
        let html = ##"<img SRC="first.png" src="second.png" Src=third.png>"##
            + ##"<a data-a-very-long-attribute-name-1="x" data-a-very-long-attribute-name-2="y" "##
            + ##"DATA-A-VERY-LONG-ATTRIBUTE-NAME-1="z" HREF="a.html" href="b.html">a</a>"##
            + ##"<a hreflang=en hre=x href="c.html">c</a>"##
        let (extraction, refs) = try extractOne(html)
        #expect(refs.map(\.value) == ["first.png", "a.html", "c.html"])
        #expect(refs.map(\.attribute) == ["src", "href", "href"])
        #expect(refs.map { raw(extraction, $0) } == ["first.png", "a.html", "c.html"])
    }

    @Test func rawTextElementsHideMarkupButNotWhatFollows() throws {
        let (_, refs) = try extractOne("<title><img src=t.png></title><textarea><a href=x></textarea><img src=after.png>")
        #expect(refs.map(\.value) == ["after.png"])
    }

    /// A raw-text element that is never closed hides nothing: XHTML-style `<iframe …/>` (each
    /// page of ImageMagick's manual has one before its content) would make a browser read the
    /// rest of the page as the frame's text, but the author meant an empty element, and
    /// libxml2 reads on as markup. One closed later still hides what it holds.
    @Test func rawTextElementsNeverClosedHideNothing() throws {
        let iframe = try extractOne(#"<body><iframe src="button.html"/><p><a href="www/formats.html">f</a><img src=i.png></body>"#).1
        #expect(iframe.map(\.value) == ["button.html", "www/formats.html", "i.png"])
        let title = try extractOne("<head><title/></head><body><a href=a.html>a</a></body>").1
        #expect(title.map(\.value) == ["a.html"])
        let textarea = try extractOne("<textarea><a href=x.html>x</a><img src=y.png>").1
        #expect(textarea.map(\.value) == ["x.html", "y.png"])
        let closedLater = try extractOne(#"<iframe src="f.html"/><a href=hidden.html></iframe><a href=shown.html>"#).1
        #expect(closedLater.map(\.value) == ["f.html", "shown.html"])
        let otherClosing = try extractOne("<xmp><a href=x.html></textarea><a href=y.html>").1
        #expect(otherClosing.map(\.value) == ["x.html", "y.html"], "only its own closing tag ends a raw text")
    }

    /// Element names are classified from a two-word copy that holds 16 bytes: names of 8, 9,
    /// 16 and 17 bytes and more, known or not, each keep what they mean, in one document
    /// where libxml2 interns them all.
    @Test func elementNamesOfEveryLengthKeepTheirMeaning() throws {
        let html = """
            <feimage href=f.png><noframes><img src=hidden1.png></noframes><textarea><img src=hidden2.png></textarea>
            <abcdefghijklmnop style="background:url(sixteen.png)"><img src=a.png></abcdefghijklmnop>
            <abcdefghijklmnopq style="background:url(seventeen.png)"><a href=b.html>b</a></abcdefghijklmnopq>
            <my-very-long-custom-element-name style="background:url(long.png)" src=ignored.png></my-very-long-custom-element-name>
            <imagex src=not-an-image.png><image href=svg.png><noembed><a href=hidden3.html></a></noembed><a href=last.html>l</a>
            """
        let (_, refs) = try extractOne(html)
        #expect(refs.map(\.value) == [
            "f.png", "sixteen.png", "a.png", "seventeen.png", "b.html", "long.png", "svg.png", "last.html",
        ])
    }
}

/// The two-word element names the collector classifies tags by.
@Suite struct ElementNameTests {
    /// `text` as a C string in a buffer of exactly its length plus NUL (so that under
    /// AddressSanitizer a read past the NUL fails the test).
    private func name(_ text: String) -> ElementName? {
        let bytes = Array(text.utf8CString)
        let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
        defer { buffer.deallocate() }
        _ = buffer.initialize(from: bytes)
        return ElementName(buffer.baseAddress!)
    }

    /// Overlapping references (libxml2's recovery reporting a tag inside CSS an earlier element
    /// claimed) are dropped in place: each kept one starts at or after the end of the one kept
    /// before it, in the order found, as a fresh filtered copy would keep them.
    @Test func overlapsAreDroppedInPlaceKeepingTheFirstClaim() {
        func reference(_ span: Range<Int>) -> Reference {
            Reference(kind: .link, element: "a", attribute: "href", value: "\(span)", span: span, isRequisite: false,
                      syntax: .htmlAttribute(quote: .none))
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            var spans: [Range<Int>] = []
            var cursor = 0
            for _ in 0..<(round % 40) {
                cursor += Int.random(in: -6...8, using: &generator)
                cursor = max(cursor, 0)
                let start = cursor
                cursor += Int.random(in: 1...5, using: &generator)
                spans.append(start..<cursor)
            }
            var expected: [Range<Int>] = []
            for span in spans where expected.last.map({ span.lowerBound >= $0.upperBound }) ?? true { expected.append(span) }
            var references = spans.map(reference)
            HTMLExtractor.removeOverlaps(&references)
            #expect(references.map(\.span) == expected, "\(spans)")
            #expect(references.map(\.value) == expected.map { "\($0)" })
        }
        var none: [Reference] = []
        HTMLExtractor.removeOverlaps(&none)
        #expect(none.isEmpty)
    }

    @Test func namesUpToSixteenBytesAreKeptApartAndLongerOnesAreRefused() throws {
        let texts = ["", "a", "img", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgi", "abcdefghijklmnop", "abcdefghijklmnoq",
                     "bbcdefghijklmnop"]
        let names = try texts.map { try #require(name($0)) }
        #expect(Set(names).count == texts.count)
        for (text, value) in zip(texts, names) { #expect(name(text) == value) }
        #expect(name("abcdefghijklmnopq") == nil)
        #expect(name("my-very-long-custom-element") == nil)
    }

    /// The name ``CertainMarkup`` builds from the page's bytes (any case) equals the one built
    /// from libxml2's lowercased name.
    @Test func aNameReadFromThePageInAnyCaseEqualsLibxml2sLowercasedName() throws {
        for (page, lowercased) in [("IMG", "img"), ("Td", "td"), ("feImage", "feimage"), ("a", "a"), ("ABCDEFGHIJKLMNOP", "abcdefghijklmnop"), ("x-1:Y.z_", "x-1:y.z_")] {
            let read = Array(page.utf8).withUnsafeBufferPointer { ElementName(lowercasing: $0.baseAddress!, count: $0.count) }
            #expect(read == name(lowercased), "\(page)")
        }
        #expect(Array("ABCDEFGHIJKLMNOPQ".utf8).withUnsafeBufferPointer { ElementName(lowercasing: $0.baseAddress!, count: $0.count) } == nil)
    }

    /// Every name of the table is found with its number, whatever slot it landed in, and no
    /// other name is: 3,000 others, many of which start their search in an occupied slot.
    @Test func theTableFindsItsNamesAndNoOther() throws {
        let known = ["a", "area", "link", "img", "source", "video", "audio", "track", "script", "iframe", "frame", "embed",
                     "object", "input", "body", "table", "td", "th", "meta", "base", "use", "image", "style", "form",
                     "feimage", "textarea", "title", "xmp", "noembed", "noframes", "abcdefghijklmnop"]
        let table = ElementNameTable(try known.map { try #require(name($0)) })
        for (number, text) in known.enumerated() {
            #expect(table.number(of: try #require(name(text))) == number, "\(text)")
        }
        var generator = SystemRandomNumberGenerator()
        var tried = 0
        while tried < 3_000 {
            let length = Int.random(in: 1...16, using: &generator)
            let text = String((0..<length).map { _ in "abcdefghijklmnopqrstuvwxyz-".randomElement(using: &generator)! })
            guard !known.contains(text) else { continue }
            #expect(table.number(of: try #require(name(text))) == nil, "\(text)")
            tried += 1
        }
        // Names one byte away from a known one, in either word.
        for text in ["b", "ab", "imh", "scripu", "abcdefghijklmnoq", "bbcdefghijklmnop", "tabl", "tablee"] {
            #expect(table.number(of: try #require(name(text))) == nil, "\(text)")
        }
    }
}

/// The copy libxml2 parses: every byte maps as the table says, whether it sits in a word the
/// fast path skips or not, at every position and length.
@Suite struct ASCIIProxyTests {
    static func expected(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E: byte
        case 0x0C: 0x20
        default: UInt8(ascii: "x")
        }
    }

    @Test func everyByteAtEveryPositionOfAWord() {
        for byte in UInt8.min...UInt8.max {
            for position in 0..<8 {
                var word = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                word[position] = byte
                let value = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(HTMLExtractor.isPlainWord(value) == (0x20...0x7E).contains(byte), "byte \(byte) at \(position)")
                let proxy = HTMLExtractor.asciiProxy(word + [UInt8](repeating: UInt8(ascii: "b"), count: 9))
                #expect(proxy[position] == Self.expected(byte), "byte \(byte) at \(position)")
            }
        }
    }

    @Test func randomDocumentsOfEveryLengthMatchTheTable() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            for _ in 0..<20 {
                // Mostly printable ASCII, as pages are, with controls and UTF-8 mixed in.
                let bytes = (0..<length).map { _ -> UInt8 in
                    UInt8.random(in: 0...9, using: &generator) < 7 ? UInt8.random(in: 0x20...0x7E, using: &generator)
                        : UInt8.random(in: 0...255, using: &generator)
                }
                let proxy = HTMLExtractor.asciiProxy(bytes)
                var expected = bytes.map(Self.expected)
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { expected.replaceSubrange(0..<3, with: [0x20, 0x20, 0x20]) }
                #expect(proxy == expected, "\(bytes)")
            }
        }
    }
}
