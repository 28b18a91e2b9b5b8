#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a document's ASCII proxy construct by construct exactly as libxml2 2.9's HTML parser
/// reads it, for as long as that reading is certain; ``CompactProxy`` uses it to leave out of
/// libxml2's copy the tags the collector does not need.
///
/// libxml2's cost is per tag (a dictionary lookup per name, a buffer per value, the
/// auto-close tables), and on real documentation fewer than one tag in ten can hold a
/// reference. Where every construct is certain, libxml2 needs to see only those tags:
/// everything between two of them (text, end tags, comments, processing instructions, other
/// start tags, scripts without references) becomes one filler byte.
///
/// The reading follows libxml2 2.9.14 (`htmlParseDocument`, `htmlParseContentInternal` and the
/// functions it calls): blanks, comments and processing instructions, then a doctype, then
/// content, where `</` starts an end tag (its name, then anything up to `>`), `<!--` a comment
/// (up to the first `-->` or `--!>` after its opening), `<?` and a name a processing
/// instruction (up to `>`), `<` and a letter a start tag (name, then attributes: a name, `=`,
/// and a value quoted with `"` or `'` or running to a blank or `>`; where no name starts, a
/// bogus attribute, skipped to the next blank, `>` or `/>`), and any other `<` is text.
/// After `<script>` or `<style>` (not `/>`), raw text runs to the first `</script` or
/// `</style` in any case. Whatever falls outside these shapes (a quote never closed, a
/// doctype in the middle, raw text starting with `</` or `<` and a name, a name of 100
/// bytes, a tag the document ends in) makes the reading uncertain (``next(at:)`` returns
/// nil), and such a document is compacted by the context-free rules alone.
///
/// Leaving start and end tags out changes only libxml2's stack of open elements. Within
/// certain constructs that stack decides nothing the collector sees but whether a start tag
/// named `html`, `head` or `body` is reported (a misplaced one is discarded): so tags are left
/// out only after the first `<body>` (in a document without one, only after its last `html` or
/// `head` start tag), and a document with another such tag after that point is not skimmed.
/// `<script>` and `<style>` are on top of the stack when opened, their raw text ends at their
/// own closing tag whatever is below, and libxml2 2.9 has no depth limit. Outside
/// certain constructs the stack does matter (an end tag at the very start of a script's raw
/// text closes the script if that element is open), which is why an uncertain construct
/// anywhere turns the skim off for the whole document.
struct CertainMarkup {
    let bytes: UnsafeBufferPointer<UInt8>

    /// One construct of content.
    enum Construct {
        /// Text up to `end` (exclusive), and whether it is all blank.
        case text(end: Int, blank: Bool)
        /// Markup that reports no start tag: an end tag, a comment, a processing instruction.
        case markup(end: Int)
        /// A start tag, with the raw text and end tag of a `<script>` or `<style>`.
        case element(Element)
    }

    /// A start tag as libxml2 reads it.
    struct Element {
        /// Where its `<` is.
        let start: Int
        /// Just after its `>` (or `/>`).
        let tagEnd: Int
        /// For `<script>` and `<style>`: where the closing tag starts (the raw text is
        /// `tagEnd..<closing`); nil for other elements.
        let closing: Int?
        /// Just after the whole construct (the closing tag's `>` for raw text).
        let end: Int
        /// Whether the collector may need libxml2 to report it: an element the collector
        /// knows (``HTMLReferenceCollector/needsTag(named:)``), one with a `style` attribute, one
        /// with a bogus attribute (the collector's lexer reads it otherwise), or one with an
        /// `href` that does not start with `#` (any element links with one), but not an `<a>`
        /// whose every `href` and `xlink:href` starts with `#` and that has no bogus attribute
        /// (the collector reports no fragment-only value), nor a `<table>`, `<td>` or `<th>`
        /// without a `background` attribute (its only reference of its own).
        let needed: Bool
        /// `html`, `head` or `body`, whose reporting depends on libxml2's stack.
        let isDocumentElement: Bool
        let isBody: Bool
    }

    /// Where the skim of ``CompactProxy`` may start: just after the first `<body>` start tag,
    /// when everything up to it reads with certainty; in a document with no `<body>` start tag
    /// at all that reads with certainty to its end (a template fragment, a hand-written page
    /// that leaves `<html>`, `<head>` and `<body>` to be implied), just after its last `<html>`
    /// or `<head>` start tag, or where its content starts when it has neither. nil otherwise.
    ///
    /// Without a `<body>`, libxml2 implies `html`, `head` and `body` (and `p` around stray text)
    /// as it meets the first tags of content, and reports each with no attribute, which the
    /// collector ignores. Leaving tags out after that point changes only which of them are
    /// implied and where; no `html`, `head` or `body` start tag is left there whose reporting
    /// could depend on it (the skim stops at one).
    /// - Parameter rawTexts: receives the raw text of each `<script>` and `<style>` before that
    ///   point (the bytes between its start tag and its closing tag), in document order.
    func skimStart(rawTexts: inout [Range<Int>]) -> (offset: Int, afterBody: Bool)? {
        let n = bytes.count
        var i = skipBlanks(0)
        // The prolog: comments and processing instructions, then perhaps a doctype.
        while i < n, bytes[i] == 0x3C, i + 1 < n, bytes[i + 1] == 0x21 || bytes[i + 1] == 0x3F {
            if isDoctype(at: i) {
                guard let end = doctypeEnd(at: i) else { return nil }
                i = end
                break
            }
            guard let construct = next(at: i), case .markup(let end) = construct else { return nil }
            i = skipBlanks(end)
        }
        var start = i
        var values: [Range<Int>] = []
        while i < n {
            guard let construct = next(at: i, values: &values) else { return nil }
            switch construct {
            case .text(let end, _), .markup(let end): i = end
            case .element(let element):
                if element.isBody { return (element.tagEnd, true) }
                if element.isDocumentElement { start = element.tagEnd }
                if let closing = element.closing, closing > element.tagEnd { rawTexts.append(element.tagEnd..<closing) }
                i = element.end
            }
        }
        rawTexts.removeAll { $0.lowerBound >= start }
        return (start, false)
    }

    /// The construct of content that starts at `i`, or nil when libxml2's reading of it is not
    /// certain. `values` receives the spans of the start tag's quoted values (between quotes).
    func next(at i: Int, values: inout [Range<Int>]) -> Construct? {
        let n = bytes.count
        guard bytes[i] == 0x3C else { return text(at: i) }
        guard i + 1 < n else { return .text(end: n, blank: false) }
        let second = bytes[i + 1]
        if Self.isLetter(second) { return startTag(at: i, values: &values) }
        return next(at: i)
    }

    /// ``next(at:values:)`` for anything but a start tag (whose values it would need).
    func next(at i: Int) -> Construct? {
        let n = bytes.count
        guard bytes[i] == 0x3C else { return text(at: i) }
        guard i + 1 < n else { return .text(end: n, blank: false) }
        switch bytes[i + 1] {
        case 0x2F:  // `</`: an end tag when a name follows (then up to `>`); else libxml2 skips the two bytes.
            guard i + 2 < n, Self.isNameStart(bytes[i + 2]) else { return .markup(end: i + 2) }
            guard let close = find(0x3E, from: i + 2) else { return nil }
            return .markup(end: close + 1)
        case 0x21:  // `<!`
            if i + 3 < n, bytes[i + 2] == 0x2D, bytes[i + 3] == 0x2D { return commentEnd(at: i).map { .markup(end: $0) } }
            if isDoctype(at: i) { return nil }  // a doctype in content: libxml2 reads on oddly after it
            return .text(end: i + 1, blank: false)
        case 0x3F:  // `<?`: a processing instruction, up to `>`.
            guard i + 2 < n, Self.isXMLNameStart(bytes[i + 2]) else { return nil }
            guard let close = find(0x3E, from: i + 2) else { return nil }
            return .markup(end: close + 1)
        case let b where Self.isLetter(b):
            return nil  // a start tag: ``next(at:values:)``
        default:
            return .text(end: i + 1, blank: false)  // a `<` that starts nothing is text
        }
    }

    // MARK: - Constructs

    private func text(at i: Int) -> Construct {
        let end = find(0x3C, from: i) ?? bytes.count
        var blank = true
        var k = i
        while k < end {
            if !Self.isBlank(bytes[k]) { blank = false; break }
            k += 1
        }
        return .text(end: end, blank: blank)
    }

    /// The end of the comment whose `<!--` is at `i`: after the first `-->` or `--!>` that
    /// starts at `i + 4` or later (libxml2 2.9.14 knows no shorter comment).
    private func commentEnd(at i: Int) -> Int? {
        let n = bytes.count
        var k = i + 4
        while k + 2 < n, let dash = find(0x2D, from: k) {
            guard dash + 2 < n else { return nil }
            if bytes[dash + 1] == 0x2D {
                if bytes[dash + 2] == 0x3E { return dash + 3 }
                if bytes[dash + 2] == 0x21, dash + 3 < n, bytes[dash + 3] == 0x3E { return dash + 4 }
            }
            k = dash + 1
        }
        return nil
    }

    private func isDoctype(at i: Int) -> Bool {
        i + 9 <= bytes.count && bytes[i + 1] == 0x21 && equalsLowercased(i + 2, "doctype")
    }

    /// The end of the doctype at `i` (`htmlParseDocTypeDecl`): a name, an external id with its
    /// quoted literals, then anything up to `>`.
    private func doctypeEnd(at i: Int) -> Int? {
        let n = bytes.count
        var j = skipBlanks(i + 9)
        if j < n, Self.isXMLNameStart(bytes[j]) {
            while j < n, Self.isNameByte(bytes[j]) { j += 1 }
        }
        j = skipBlanks(j)
        func literal() -> Bool {
            guard j < n, bytes[j] == 0x22 || bytes[j] == 0x27 else { return true }
            guard let close = find(bytes[j], from: j + 1) else { return false }
            j = close + 1
            return true
        }
        if equalsLowercased(j, "system") {
            j = skipBlanks(j + 6)
            guard literal() else { return nil }
        } else if equalsLowercased(j, "public") {
            j = skipBlanks(j + 6)
            guard literal() else { return nil }
            j = skipBlanks(j)
            guard literal() else { return nil }
        }
        guard let close = find(0x3E, from: j) else { return nil }
        return close + 1
    }

    /// The start tag at `i` (`<` and a letter), with the raw text and closing tag of a
    /// `<script>` or `<style>`; nil when any part of it is not well formed.
    private func startTag(at i: Int, values: inout [Range<Int>]) -> Construct? {
        let n = bytes.count
        if !values.isEmpty { values.removeAll(keepingCapacity: true) }  // (most tags have no value)
        var j = i + 1
        while j < n, Self.isNameByte(bytes[j]) { j += 1 }
        let nameRange = (i + 1)..<j
        guard nameRange.count < 100 else { return nil }  // libxml2 cuts names at 100 bytes
        var hasStyle = false
        var hasBogus = false
        var hasBackground = false
        // Whether an `href` or `xlink:href` may point outside the document (any value but one
        // that starts with `#`), and whether an `href` itself may.
        var linksOut = false
        var hrefLinksOut = false
        j = skipBlanks(j)
        let tagEnd: Int
        let selfClosing: Bool
        while true {
            guard j < n else { return nil }
            let b = bytes[j]
            if b == 0x3E { tagEnd = j + 1; selfClosing = false; break }
            if isEmptyTagEnd(at: j) { tagEnd = j + 2; selfClosing = true; break }
            guard Self.isNameStart(b) else {
                // A bogus attribute (`htmlParseStartTag`): no name starts here, so libxml2
                // skips to the next blank, `>` or `/>`, quotes and `=` included, and reads the
                // attributes after it as usual (`<Flash.*>` in a manual's text, `<a "x">`).
                // The tag is kept (``Element/needed``): the collector's lexer reads it otherwise.
                hasBogus = true
                while j < n, !Self.isBlank(bytes[j]), bytes[j] != 0x3E, !isEmptyTagEnd(at: j) { j += 1 }
                j = skipBlanks(j)
                continue
            }
            let nameStart = j
            while j < n, Self.isNameByte(bytes[j]) { j += 1 }
            guard j - nameStart < 100 else { return nil }
            let nameLength = j - nameStart
            if nameLength == 5, equalsLowercased(nameStart, "style") { hasStyle = true }
            if nameLength == 10, equalsLowercased(nameStart, "background") { hasBackground = true }
            let isPlainHref = nameLength == 4 && equalsLowercased(nameStart, "href")
            let isHref = isPlainHref || (nameLength == 10 && equalsLowercased(nameStart, "xlink:href"))
            var out = false
            j = skipBlanks(j)
            if j < n, bytes[j] == 0x3D {
                j = skipBlanks(j + 1)
                guard j < n else { return nil }
                let quote = bytes[j]
                if quote == 0x22 || quote == 0x27 {
                    guard let close = find(quote, from: j + 1) else { return nil }
                    if isHref, close == j + 1 || bytes[j + 1] != 0x23 { out = true }
                    values.append((j + 1)..<close)
                    j = close + 1
                } else {
                    if isHref, bytes[j] != 0x23 { out = true }
                    while j < n, !Self.isBlank(bytes[j]), bytes[j] != 0x3E { j += 1 }
                }
            } else if isHref {
                out = true
            }
            if out {
                linksOut = true
                if isPlainHref { hrefLinksOut = true }
            }
            j = skipBlanks(j)
        }
        let isLink = nameRange.count == 1 && bytes[nameRange.lowerBound] | 0x20 == 0x61
        let needed = hasStyle || hasBogus || hrefLinksOut
            || (isLink ? linksOut
                : isTablePart(nameRange) ? hasBackground
                : (ElementName(lowercasing: bytes.baseAddress! + nameRange.lowerBound, count: nameRange.count)
                    .map(HTMLReferenceCollector.needsTag(named:)) ?? false))
        let isBody = nameRange.count == 4 && equalsLowercased(nameRange.lowerBound, "body")
        let isDocumentElement = isBody
            || (nameRange.count == 4 && (equalsLowercased(nameRange.lowerBound, "html") || equalsLowercased(nameRange.lowerBound, "head")))
        let raw = !selfClosing
            && ((nameRange.count == 6 && equalsLowercased(nameRange.lowerBound, "script"))
                || (nameRange.count == 5 && equalsLowercased(nameRange.lowerBound, "style")))
        guard raw else {
            return .element(Element(start: i, tagEnd: tagEnd, closing: nil, end: tagEnd, needed: needed,
                                    isDocumentElement: isDocumentElement, isBody: isBody))
        }
        // Raw text. At its very start libxml2 first tries `</…` as an end tag and `<x` (a
        // letter, `_` or `:`) against the auto-close table: of those, only an immediate closing
        // tag is certain there. Any other `<` (`<!--//--><![CDATA[` opening Apache's scripts)
        // goes straight to the raw text, like any other byte.
        var k = tagEnd
        while true {
            guard let lt = find(0x3C, from: k) else { return nil }
            if lt + 1 < n, bytes[lt + 1] == 0x2F, lt + 2 + nameRange.count <= n, sameName(at: lt + 2, as: nameRange) {
                // The first `</script` (any case) ends the raw text; its name must end there.
                let after = lt + 2 + nameRange.count
                guard after < n, !Self.isNameByte(bytes[after]) else { return nil }
                let gt = skipBlanks(after)
                guard gt < n, bytes[gt] == 0x3E else { return nil }
                return .element(Element(start: i, tagEnd: tagEnd, closing: lt, end: gt + 1, needed: needed,
                                        isDocumentElement: false, isBody: false))
            }
            if lt == tagEnd, lt + 1 < n, bytes[lt + 1] == 0x2F || Self.isNameStart(bytes[lt + 1]) { return nil }
            k = lt + 1
        }
    }

    // MARK: - Bytes

    private func find(_ byte: UInt8, from i: Int) -> Int? {
        let n = bytes.count
        guard i < n, let base = bytes.baseAddress, let found = memchr(base + i, Int32(byte), n - i) else { return nil }
        return UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// Whether `/>` starts at `i`.
    private func isEmptyTagEnd(at i: Int) -> Bool {
        bytes[i] == 0x2F && i + 1 < bytes.count && bytes[i + 1] == 0x3E
    }

    private func skipBlanks(_ i: Int) -> Int {
        var j = i
        while j < bytes.count, Self.isBlank(bytes[j]) { j += 1 }
        return j
    }

    /// Whether `name` is `table`, `td` or `th`, whose only reference of their own is a
    /// `background` attribute (``HTMLReferenceCollector/emit(_:)``): one without it (nor a
    /// `style`, nor an `href`) gives the collector nothing. Tables are most of the tags a
    /// manual's page keeps for libxml2 otherwise: 3,231 of the 3,633 of WeeChat's user guide,
    /// 3,492 of the 3,536 of SBCL's manual.
    private func isTablePart(_ name: Range<Int>) -> Bool {
        switch name.count {
        case 2: equalsLowercased(name.lowerBound, "td") || equalsLowercased(name.lowerBound, "th")
        case 5: equalsLowercased(name.lowerBound, "table")
        default: false
        }
    }

    /// Whether the bytes at `at` are `word` (lowercase ASCII letters) in any case.
    private func equalsLowercased(_ at: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        let w = word.utf8Start
        for k in 0..<count where bytes[at + k] | 0x20 != w[k] { return false }
        return true
    }

    /// Whether the bytes at `at` equal the bytes of `range` (another place in the document),
    /// ASCII letters compared without case.
    private func sameName(at: Int, as range: Range<Int>) -> Bool {
        for k in 0..<range.count {
            let a = bytes[at + k], b = bytes[range.lowerBound + k]
            if a == b { continue }
            guard Self.isLetter(a), a | 0x20 == b | 0x20 else { return false }
        }
        return true
    }

    /// IS_BLANK_CH: what libxml2 skips between names and values (the proxy has no form feed).
    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// A byte `htmlParseHTMLName` starts a name with.
    @inline(__always) static func isNameStart(_ b: UInt8) -> Bool { isLetter(b) || b == 0x5F || b == 0x3A || b == 0x2E }

    /// A byte `htmlParseName` starts an XML name with (ASCII only: the proxy has no other).
    @inline(__always) static func isXMLNameStart(_ b: UInt8) -> Bool { isLetter(b) || b == 0x5F || b == 0x3A }

    /// A byte of a name (letters, digits, `: - _ .`).
    @inline(__always) static func isNameByte(_ b: UInt8) -> Bool {
        isLetter(b) || (b >= 0x30 && b <= 0x3A) || b == 0x2D || b == 0x5F || b == 0x2E
    }
}
