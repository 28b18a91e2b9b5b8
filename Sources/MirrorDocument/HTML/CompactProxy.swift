/// A shorter copy of the ASCII proxy (see ``HTMLExtractor``) for libxml2 to parse, with the map
/// from its offsets back to offsets in the proxy.
///
/// libxml2 spends most of its time reading text and attribute values byte by byte, and the
/// extractor needs neither from it: only which `<…>` are start tags, their names and attribute
/// names, and where each start tag's attributes end. So text and values libxml2 cannot read as
/// markup are collapsed to one filler byte each, and the offset libxml2 reports is mapped back.
/// On real documentation this cuts libxml2's time by 37–46 %, with the same tags found.
///
/// Two rules, each chosen so that libxml2 finds the same tags at the same (mapped) places:
/// - **Text stretches.** After a `>`, libxml2 is in text, in a quoted value, or inside a
///   comment, raw text (`<script>`, `<style>`), a processing instruction or a bogus comment.
///   Only `<` or a quote can lead from any of those back into a tag, so a stretch ends at the
///   first `<`, `"` or `'`, and everything up to the next `>` is copied (but for values,
///   below). Inside a stretch the bytes that end comments, CDATA and processing instructions
///   (`> - ! ? ]`) stay, each in place; every run of two or more other bytes becomes one
///   space (the run is all whitespace) or one `x`, so a terminator such as `-->` is neither
///   made nor broken and blank text stays blank.
/// - **Attribute values.** Where the copy reads whitespace (not after `=`), an attribute name
///   (a letter, `_`, `:` or `.`, then name bytes) and `="` (or `='`), a value of two or more
///   bytes up to the closing quote that holds none of `< > = " '` and is not all whitespace
///   becomes one `:`. In a start tag that quote opens the value (whitespace ends any unquoted
///   value or skipped junk, and the name is one libxml2 reads), so only the value changes; in
///   text, a comment, raw text, an end tag, a doctype or a value quoted with the other quote,
///   the collapsed bytes cannot end or open anything. One case is left: inside a value quoted
///   with the same quote, the "opening" quote closes it, and libxml2 reads the filler as an
///   attribute named `:`. ``misread(_:)`` spots that name and the extractor then parses the
///   full proxy instead (a legitimate attribute named `:` costs the same, never a wrong answer).
///
/// After the `<body>` of a document whose every construct ``CertainMarkup`` reads with
/// certainty (in a document with no `<body>` tag, after its last `<html>` or `<head>` start
/// tag, or from its content's start: ``CertainMarkup/skimStart(rawTexts:)``), a third rule
/// replaces both: everything between two tags the collector needs
/// becomes one filler byte (`x`, or a space for blank text), and those tags keep only their
/// quoted values collapsed. libxml2 then parses about a tenth of a documentation page. Before
/// the `<body>` of such a document, each `<script>`'s and `<style>`'s raw text becomes one
/// filler too (the context-free rules would keep every `-`, `!` and `>` of a stylesheet).
///
/// The extractor still locates and lexes tags in the full proxy; only libxml2's offsets pass
/// through ``originalOffset(_:)``.
struct CompactProxy {
    /// What libxml2 parses.
    private(set) var bytes: [UInt8]
    /// For each collapsed run, in order: the offset of its filler byte in ``bytes``.
    private var fillers: [Int32] = []
    /// For each collapsed run: how many proxy bytes all runs up to and including it removed.
    private var removed: [Int32] = []
    /// The proxy offsets of the `>` of each start tag the skim left out, in order: libxml2
    /// reports such a tag when it parses the proxy itself, and the collector's search for the
    /// next tag's `<` never goes back past one (``HTMLReferenceCollector``), so the collector
    /// applies them as if libxml2 had reported them.
    private(set) var skippedTagEnds: [Int32] = []

    /// Compacts `proxy` (an ASCII proxy: no byte ≥ 0x80, no control byte but tab, LF, CR),
    /// which must be shorter than 2 GiB (offsets are kept as 32-bit numbers).
    /// - Parameter skimming: false to apply the context-free rules alone (tests of those rules).
    init(_ proxy: UnsafeBufferPointer<UInt8>, skimming: Bool = true) {
        precondition(proxy.count < Int(Int32.max), "CompactProxy: a document of 2 GiB or more")
        var fillers: [Int32] = []
        var removed: [Int32] = []
        var skipped: [Int32] = []
        bytes = [UInt8](unsafeUninitializedCapacity: proxy.count) { out, initialized in
            initialized = Self.byteClasses.withUnsafeBufferPointer { classes in
                Self.compact(proxy, into: out, classes: classes, fillers: &fillers, removed: &removed, skipped: &skipped,
                             skimming: skimming)
            }
        }
        skippedTagEnds = skipped
        self.fillers = fillers
        self.removed = removed
    }

    /// The compaction itself, over plain pointers and locals (no captured state in the loop).
    /// - Returns: the number of bytes written to `out`.
    private static func compact(
        _ proxy: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>,
        fillers: inout [Int32], removed: inout [Int32], skipped: inout [Int32], skimming: Bool
    ) -> Int {
        guard let out = buffer.baseAddress, !proxy.isEmpty else { return 0 }
        var o = 0
        var totalRemoved = 0
        if skimming, let skimmed = skim(proxy, into: out, classes: classes, fillers: &fillers, removed: &removed, skipped: &skipped) {
            return skimmed
        }
        fillers.removeAll(keepingCapacity: true)
        removed.removeAll(keepingCapacity: true)
        skipped.removeAll(keepingCapacity: true)
        compactRange(proxy, 0..<proxy.count, into: out, at: &o, classes: classes, fillers: &fillers, removed: &removed,
                     totalRemoved: &totalRemoved)
        return o
    }

    /// When ``CertainMarkup`` reads the whole document with certainty, compacts it up to its
    /// `<body>` (or, without one, to where ``CertainMarkup/skimStart(rawTexts:)`` says) with the
    /// context-free rules and, after it, leaves out everything the collector does not need
    /// (see ``CertainMarkup``).
    /// - Returns: the number of bytes written, or nil when some construct of the document is
    ///   not certain, or another `html`, `head` or `body` follows the `<body>`.
    private static func skim(
        _ proxy: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, classes: UnsafeBufferPointer<UInt8>,
        fillers: inout [Int32], removed: inout [Int32], skipped: inout [Int32]
    ) -> Int? {
        let markup = CertainMarkup(bytes: proxy)
        var rawTexts: [Range<Int>] = []
        guard let body = markup.skimStart(rawTexts: &rawTexts)?.offset else { return nil }
        let n = proxy.count
        var o = 0
        var totalRemoved = 0
        // Up to the body, the context-free rules, but each script's and style's raw text as one
        // filler: libxml2 reads raw text to its closing tag whatever it holds, and the
        // context-free rules keep every `-`, `!` and `>` of a stylesheet (Git's pages hold
        // 16 KB of CSS in their head, which then made up most of what libxml2 parsed).
        var from = 0
        for raw in rawTexts {
            compactRange(proxy, from..<raw.lowerBound, into: out, at: &o, classes: classes, fillers: &fillers, removed: &removed,
                         totalRemoved: &totalRemoved)
            if raw.count >= 2 {
                out[o] = 0x78; o += 1
                totalRemoved += raw.count - 1
                fillers.append(Int32(truncatingIfNeeded: o - 1))
                removed.append(Int32(truncatingIfNeeded: totalRemoved))
            } else {
                out[o] = proxy[raw.lowerBound]; o += 1
            }
            from = raw.upperBound
        }
        compactRange(proxy, from..<body, into: out, at: &o, classes: classes, fillers: &fillers, removed: &removed,
                     totalRemoved: &totalRemoved)
        var values: [Range<Int>] = []
        var i = body
        var run = body
        var blank = true
        /// The bytes since the last kept construct, as one filler (or as they are, when one byte).
        func flush(upTo end: Int) {
            if end - run >= 2 {
                out[o] = blank ? 0x20 : 0x78; o += 1
                totalRemoved += end - run - 1
                fillers.append(Int32(truncatingIfNeeded: o - 1))
                removed.append(Int32(truncatingIfNeeded: totalRemoved))
            } else if end - run == 1 {
                out[o] = proxy[run]; o += 1
            }
        }
        /// Copies `range`, each quoted value of two bytes or more as one `:`.
        func copy(_ range: Range<Int>, collapsing values: [Range<Int>]) {
            var k = range.lowerBound
            for value in values where value.count >= 2 {
                while k < value.lowerBound { out[o] = proxy[k]; o += 1; k += 1 }
                out[o] = valueFiller; o += 1
                totalRemoved += value.count - 1
                fillers.append(Int32(truncatingIfNeeded: o - 1))
                removed.append(Int32(truncatingIfNeeded: totalRemoved))
                k = value.upperBound
            }
            while k < range.upperBound { out[o] = proxy[k]; o += 1; k += 1 }
        }
        while i < n {
            // Past an uncertain construct libxml2 reads against its stack, which the skim has
            // changed (an end tag can close a `<script>` whose raw text starts with it).
            guard let construct = markup.next(at: i, values: &values) else { return nil }
            switch construct {
            case .text(let end, let isBlank):
                blank = blank && isBlank
                i = end
            case .markup(let end):
                blank = false
                i = end
            case .element(let element):
                if element.isDocumentElement { return nil }
                guard element.needed else {
                    // libxml2 stops at the `>` (or the `/` of `/>`: no `<` lies between).
                    skipped.append(Int32(truncatingIfNeeded: element.tagEnd - 1))
                    blank = false
                    i = element.end
                    continue
                }
                flush(upTo: i)
                copy(element.start..<element.tagEnd, collapsing: values)
                if let closing = element.closing {
                    // The raw text as one filler, the closing tag as it is.
                    run = element.tagEnd
                    blank = false
                    flush(upTo: closing)
                    copy(closing..<element.end, collapsing: [])
                }
                i = element.end
                run = i
                blank = true
            }
        }
        flush(upTo: i)
        return o
    }

    /// The context-free compaction of `range` (see the type's documentation), which starts
    /// where libxml2 reads content or at the document's start, appended at `o`.
    private static func compactRange(
        _ proxy: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: UnsafeMutablePointer<UInt8>, at o: inout Int,
        classes: UnsafeBufferPointer<UInt8>, fillers: inout [Int32], removed: inout [Int32], totalRemoved: inout Int
    ) {
        guard let source = proxy.baseAddress else { return }
        let n = range.upperBound
        var i = range.lowerBound
        while i < n {
            // Copy mode, up to and including the next `>` (then text) or quote (perhaps a value).
            var b: UInt8 = 0
            while i < n {
                b = source[i]
                out[o] = b; o += 1; i += 1
                if classes[Int(b)] & copyStop != 0 { break }
            }
            if b != 0x3E {
                guard b == 0x22 || b == 0x27, o >= 2, out[o - 2] == 0x3D, namePrecedes(out, before: o - 2) else { continue }
                // A value: find its closing quote, giving up at any byte that matters.
                var j = i
                var blank = true
                while j < n {
                    let k = classes[Int(source[j])]
                    if k & valueStop != 0 { break }
                    if k & classMask != Self.blank { blank = false }
                    j += 1
                }
                if j < n, source[j] == b, j - i >= 2, !blank {
                    out[o] = valueFiller; o += 1
                    totalRemoved += j - i - 1
                    fillers.append(Int32(truncatingIfNeeded: o - 1))
                    removed.append(Int32(truncatingIfNeeded: totalRemoved))
                    out[o] = b; o += 1
                    i = j + 1
                }
                continue
            }
            // A text stretch, up to and including the next `<` or quote.
            while i < n {
                let first = source[i]
                let kind = classes[Int(first)] & classMask
                if kind >= kept {
                    // `>`, `-`, `!`, `?`, `]` stay; `<` or a quote ends the stretch.
                    out[o] = first; o += 1; i += 1
                    if kind == stretchEnd { break }
                    continue
                }
                var j = i + 1
                var blank = kind == Self.blank
                while j < n {
                    let k = classes[Int(source[j])] & classMask
                    if k >= kept { break }
                    if k == other { blank = false }
                    j += 1
                }
                if j - i >= 2 {
                    out[o] = blank ? 0x20 : 0x78; o += 1
                    totalRemoved += j - i - 1
                    fillers.append(Int32(truncatingIfNeeded: o - 1))
                    removed.append(Int32(truncatingIfNeeded: totalRemoved))
                } else {
                    out[o] = first; o += 1
                }
                i = j
            }
        }
    }

    /// The proxy offset of offset `offset` in ``bytes``: an offset at a filler maps to the
    /// start of its run, one just after a filler to the end of its run.
    func originalOffset(_ offset: Int) -> Int {
        var cursor = 0
        return originalOffset(offset, cursor: &cursor)
    }

    /// ``originalOffset(_:)`` for offsets that mostly grow (libxml2's, tag after tag):
    /// `cursor` remembers the run reached, so a document costs one pass over the runs.
    func originalOffset(_ offset: Int, cursor: inout Int) -> Int {
        if cursor > fillers.count || (cursor > 0 && Int(fillers[cursor - 1]) >= offset) { cursor = 0 }
        if cursor + 8 < fillers.count, Int(fillers[cursor + 8]) < offset { cursor = search(offset) }
        while cursor < fillers.count, Int(fillers[cursor]) < offset { cursor += 1 }
        return cursor == 0 ? offset : offset + Int(removed[cursor - 1])
    }

    /// The number of runs whose filler lies before `offset` (a binary search).
    private func search(_ offset: Int) -> Int {
        var lo = 0, hi = fillers.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(fillers[mid]) < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The byte a collapsed value becomes: read as an attribute name, it is one no page uses.
    static let valueFiller: UInt8 = 0x3A

    /// Whether libxml2 read a collapsed value as an attribute name (an attribute named `:`), so
    /// that the compact copy may have misled it (see the type's documentation).
    static func misread(_ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) -> Bool {
        guard let attributes else { return false }
        var k = 0
        while let name = attributes[k] {
            if name[0] == valueFiller, name[1] == 0 { return true }
            k += 2
        }
        return false
    }

    /// Whether `out[..<end]` ends in whitespace not preceded by `=` (so a value cannot be
    /// open), then an attribute name as libxml2 reads one (a letter, `_`, `:` or `.`, then
    /// letters, digits, `_ : . -`; at most 64 bytes, within libxml2's name buffer).
    private static func namePrecedes(_ out: UnsafeMutablePointer<UInt8>, before end: Int) -> Bool {
        var p = end - 1
        while p >= 0, end - p <= 65, isNameByte(out[p]) { p -= 1 }
        guard p >= 0, p < end - 1, end - p <= 65, isBlank(out[p]) else { return false }
        let first = out[p + 1]
        guard (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) || first == 0x5F || first == 0x3A || first == 0x2E else { return false }
        while p >= 0, isBlank(out[p]) { p -= 1 }
        return p >= 0 && out[p] != 0x3D
    }

    @inline(__always)
    private static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    @inline(__always)
    private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x3A) || c == 0x5F || c == 0x2D
            || c == 0x2E
    }

    // Byte classes for text stretches (low bits) plus a flag for bytes that stop a value.
    private static let other: UInt8 = 0
    private static let blank: UInt8 = 1
    private static let kept: UInt8 = 2
    private static let stretchEnd: UInt8 = 3
    private static let valueStop: UInt8 = 0x80
    private static let classMask: UInt8 = 0x3F
    /// Bytes that end copy mode: `>` and the quotes.
    private static let copyStop: UInt8 = 0x40

    private static let byteClasses: [UInt8] = (0...255).map { (b: Int) -> UInt8 in
        switch UInt8(b) {
        case 0x20, 0x09, 0x0A, 0x0D: blank
        case UInt8(ascii: ">"): kept | valueStop | copyStop
        case UInt8(ascii: "-"), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "]"): kept
        case UInt8(ascii: "<"): stretchEnd | valueStop
        case UInt8(ascii: "\""), UInt8(ascii: "'"): stretchEnd | valueStop | copyStop
        case UInt8(ascii: "="): valueStop
        default: other
        }
    }
}
