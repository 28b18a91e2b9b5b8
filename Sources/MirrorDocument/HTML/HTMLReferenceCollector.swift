import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// Receives libxml2's start tags during one extraction, locates each interesting tag in the
/// source and turns its attributes into references (see ``HTMLExtractor``).
final class HTMLReferenceCollector {
    let original: UnsafeBufferPointer<UInt8>
    let proxy: UnsafeBufferPointer<UInt8>
    let charset: Charset
    /// The references found so far, in source order (``takeReferences()`` hands them over).
    var referencesStorage: [Reference] = []
    /// No tag can start before the end of the previous start tag libxml2 reported.
    private var floor = 0
    /// Tags inside raw-text elements (`<textarea>`, `<title>`, …), which libxml2 parses as
    /// markup but browsers show as text, end before this offset and are ignored (up to the
    /// element's closing tag; one never closed hides nothing).
    private var rawTextEnd = 0
    /// The attribute buffer the tag lexer fills, reused from tag to tag.
    private var attributeStorage: [HTMLTagLexer.Attribute] = []

    /// Elements whose content browsers read as text (WHATWG RCDATA/RAWTEXT) but libxml2 2.9
    /// parses as markup. `<noscript>` is not among them: we read it as with scripting off.
    static let rawTextElements: Set<String> = ["textarea", "title", "xmp", "iframe", "noembed", "noframes"]

    init(original: UnsafeBufferPointer<UInt8>, proxy: UnsafeBufferPointer<UInt8>, charset: Charset) {
        self.original = original
        self.proxy = proxy
        self.charset = charset
    }

    /// Elements whose attributes can hold URLs (any element with a `style` attribute counts too).
    static let elementsOfInterest: Set<String> = [
        "a", "area", "link", "img", "source", "video", "audio", "track", "script", "iframe", "frame",
        "embed", "object", "input", "body", "table", "td", "th", "meta", "base", "use", "image", "style",
        "form", "feimage",
    ]

    /// Whether offset `end`, where libxml2 reported a start tag, is where a tag written in the
    /// page ends: its `>`, the `/` of `/>`, or the end of the document.
    private static func endsTag(_ proxy: UnsafeBufferPointer<UInt8>, at end: Int) -> Bool {
        guard end < proxy.count else { return true }
        return proxy[end] == 0x3E || (proxy[end] == 0x2F && end + 1 < proxy.count && proxy[end + 1] == 0x3E)
    }

    /// A start tag libxml2 read but the compact copy left out (``CompactProxy/skippedTagEnds``),
    /// ending at `end`: no later tag starts before it, as when libxml2 reports it.
    func skippedTag(end: Int) {
        floor = max(floor, min(end, proxy.count))
    }

    /// Handles one libxml2 start tag.
    func startTag(name: UnsafePointer<xmlChar>, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, end: Int) {
        // Only a tag read from the page bounds the search for the next one: libxml2 stops at its
        // `>` (or `/>`, or the end). A paragraph it implies for text (`<p>` around top-level
        // text) comes at a text byte in the proxy, but just after the filler in the compact
        // copy, whose offset maps to the run's end: counted, it made the two copies disagree.
        defer { if Self.endsTag(proxy, at: end) { floor = max(floor, min(end, proxy.count)) } }
        guard end <= proxy.count, end > floor, end >= rawTextEnd else { return }
        let element = classify(name)
        // Most elements carry no reference: decide that before building the attribute names.
        // Any other element counts for a `style` attribute, and for an `href` (a link).
        if !element.isRawText, !element.isStyle, !element.isOfInterest, !Self.hasLinkOrStyleAttribute(attributes) {
            return
        }
        // libxml2's attribute names are compared in place (no array of strings per tag).
        if element.isRawText, let tag = locate(name: name, attributes: attributes, end: end) {
            // A raw text that never closes (an XHTML-style `<iframe …/>` or `<title/>`) would
            // swallow the rest of the page as text in a browser; libxml2 reads on as markup,
            // as the page's author meant, and so does the collector (ImageMagick's manual:
            // every page's links follow such an `<iframe/>`).
            let closing = closingTag(Self.knownNames[element.number], after: tag.end)
            if closing < original.count { rawTextEnd = closing }
            emit(tag)
            return
        }
        guard element.isStyle || attributes?[0] != nil else { return }
        guard let tag = locate(name: name, attributes: attributes, end: end) else { return }
        emit(tag)
    }

    /// What one element name means to the collector.
    private struct ElementClass {
        let isRawText: Bool
        let isStyle: Bool
        let isOfInterest: Bool
        /// The name's number in ``knownNames`` (a raw-text element's closing tag is searched
        /// for by name); -1 for names the collector knows nothing about.
        let number: Int

        static let uninteresting = ElementClass(isRawText: false, isStyle: false, isOfInterest: false, number: -1)
    }

    /// The element names in ``rawTextElements`` and ``elementsOfInterest``, in a fixed order;
    /// every other name is ``ElementClass/uninteresting``.
    private static let knownNames: [String] = rawTextElements.union(elementsOfInterest).sorted()

    /// ``knownNames`` by their two-word copies, numbered as in that list. Built once per process.
    private static let knownTable = ElementNameTable(knownNames.map { name in
        name.utf8CString.withUnsafeBufferPointer { ElementName($0.baseAddress!)! }
    })

    /// The classes of ``knownNames``, by number.
    private static let knownClasses: [ElementClass] = knownNames.enumerated().map { number, name in
        ElementClass(isRawText: rawTextElements.contains(name), isStyle: name == "style",
                     isOfInterest: elementsOfInterest.contains(name), number: number)
    }

    /// The class of libxml2's (lowercased) element name: a lookup of its two-word copy
    /// (``ElementName``), with no heap copy and no per-document table (a large page has tens
    /// of thousands of tags). A name longer than ``ElementName/capacity`` is none of ours.
    private func classify(_ name: UnsafePointer<xmlChar>) -> ElementClass {
        guard let key = ElementName(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)),
              let number = Self.knownTable.number(of: key) else { return .uninteresting }
        return Self.knownClasses[number]
    }

    /// Whether a start tag named `name` may give the collector something although it has
    /// neither a `style` attribute nor an `href`: an element of interest or a raw-text element.
    /// ``CertainMarkup`` keeps such tags for libxml2 and lets it skip the rest.
    static func needsTag(named name: ElementName) -> Bool { knownTable.number(of: name) != nil }

    /// Whether libxml2's attribute list (name, value, name, value, …, NULL) has a `style` or an
    /// `href`: an element the collector has no rule for still links with an `href`, as wget2
    /// and archiving crawlers read it (gtk-doc's `<GTKDOCLINK HREF="…">`, custom elements).
    private static func hasLinkOrStyleAttribute(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> Bool {
        guard let attributes else { return false }
        var k = 0
        while let attributeName = attributes[k] {
            let text = UnsafeRawPointer(attributeName).assumingMemoryBound(to: CChar.self)
            if attributeName[0] == UInt8(ascii: "s"), strcmp(text, "style") == 0 { return true }
            if attributeName[0] == UInt8(ascii: "h"), strcmp(text, "href") == 0 { return true }
            k += 2
        }
        return false
    }

    /// Finds the raw start tag ending at `end` (see ``HTMLExtractor`` for the verification).
    /// - Parameters:
    ///   - name: libxml2's lowercased tag name.
    ///   - attributes: libxml2's attribute list (name, value, …, NULL).
    private func locate(
        name: UnsafePointer<xmlChar>, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, end: Int
    ) -> HTMLTagLexer.Tag? {
        let nameBytes = UnsafeBufferPointer(start: name, count: strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)))
        var fallback: HTMLTagLexer.Tag?
        var p = min(end, proxy.count - 1)
        while p >= floor {
            defer { p -= 1 }
            guard proxy[p] == 0x3C, p + nameBytes.count < proxy.count else { continue }
            var matches = true
            for k in 0..<nameBytes.count {
                let c = proxy[p + 1 + k]
                if ((c >= 0x41 && c <= 0x5A) ? c | 0x20 : c) != nameBytes[k] { matches = false; break }
            }
            guard matches else { continue }
            let after = p + 1 + nameBytes.count
            if after < proxy.count, !(HTMLTagLexer.isSpace(proxy[after]) || proxy[after] == 0x2F || proxy[after] == 0x3E) {
                continue
            }
            guard let tag = HTMLTagLexer.lex(proxy, at: p, reusing: &attributeStorage), endsAt(tag.end, libxmlEnd: end)
            else { continue }
            if Self.isSubsequence(attributes, of: tag.attributes, in: proxy) { return tag }
            if fallback == nil { fallback = tag }
        }
        return fallback
    }

    private func endsAt(_ lexEnd: Int, libxmlEnd: Int) -> Bool {
        guard libxmlEnd <= lexEnd else { return false }
        for i in libxmlEnd..<lexEnd where !(proxy[i] == 0x2F || HTMLTagLexer.isSpace(proxy[i])) { return false }
        return true
    }

    /// Whether libxml2's attribute names (lowercased) appear, in order, among the lexer's, whose
    /// names are spans of `bytes`.
    private static func isSubsequence(
        _ names: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, of attributes: [HTMLTagLexer.Attribute],
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard let names else { return true }
        var k = 0
        var key = names[0].flatMap { ElementName(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        for a in attributes {
            guard let name = names[k] else { break }
            let matches: Bool
            if let key {
                matches = a.key == key
            } else {
                matches = a.key == nil && sameLowercased(bytes, a.nameSpan, name)
            }
            if matches {
                k += 2
                key = names[k].flatMap { ElementName(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            }
        }
        return names[k] == nil
    }

    /// Whether the bytes at `span` lowercased are the NUL-terminated `name`.
    private static func sameLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, _ name: UnsafePointer<xmlChar>) -> Bool {
        var k = 0
        for i in span {
            guard name[k] != 0, HTMLTagLexer.lowercased(bytes[i]) == name[k] else { return false }
            k += 1
        }
        return name[k] == 0
    }

    /// The offset of `</name` after `from`, or the document's end.
    func closingTag(_ name: String, after from: Int) -> Int {
        var name = name
        return name.withUTF8 { closingTag($0, after: from) }
    }

    private func closingTag(_ nameBytes: UnsafeBufferPointer<UInt8>, after from: Int) -> Int {
        let n = original.count
        var i = from + 1
        while i + 1 + nameBytes.count < n {
            if proxy[i] == 0x3C, proxy[i + 1] == 0x2F {
                var matches = true
                for k in 0..<nameBytes.count where proxy[i + 2 + k] | 0x20 != nameBytes[k] { matches = false; break }
                if matches { return i }
            }
            i += 1
        }
        return n
    }

    // MARK: - Values

    /// The attribute's value span without leading/trailing ASCII whitespace.
    func trimmed(_ span: Range<Int>) -> Range<Int> {
        var lo = span.lowerBound, hi = span.upperBound
        while lo < hi, HTMLTagLexer.isSpace(original[lo]) { lo += 1 }
        while hi > lo, HTMLTagLexer.isSpace(original[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    func decoded(_ span: Range<Int>) -> String { HTMLEntities.decode(original, span, charset: charset) }

    func append(_ reference: Reference) { referencesStorage.append(reference) }

    /// The references found, handed over without a copy (the collector keeps none).
    func takeReferences() -> [Reference] {
        var taken: [Reference] = []
        swap(&taken, &referencesStorage)
        return taken
    }
}
