/// A small lexer for one raw HTML start tag, following the attribute states of the WHATWG
/// tokenizer (§13.2.5.32–13.2.5.39).
///
/// libxml2 reports elements but not where their attributes sit in the source. The extractor
/// finds the start tag's bytes and this lexer recovers each attribute's exact value span.
/// It never allocates per byte; the tag's name is a lowercased ASCII copy, attribute names
/// are spans and two-word keys (``Attribute``).
struct HTMLTagLexer {
    /// One attribute of a start tag.
    ///
    /// Its name is kept as where it is in the buffer and, when it has at most
    /// ``ElementName/capacity`` bytes (every name a caller looks up), as its lowercased
    /// two-word copy: the lexer compares names without making a `String` for each (a large
    /// page has tens of thousands of attributes, issue #27). ``HTMLTagLexer/name(of:in:)`` makes
    /// the text.
    struct Attribute: Equatable {
        /// The name's bytes as written (any case).
        var nameSpan: Range<Int>
        /// The lowercased name in two words, or nil when it is longer than ``ElementName/capacity``.
        var key: ElementName?
        /// The raw value's bytes without quotes; an empty range at the name's end when the
        /// attribute has no value.
        var valueSpan: Range<Int>
        /// The quoting of the value.
        var quote: Reference.Quote
        /// From the whitespace before the name through the closing quote.
        var fullSpan: Range<Int>
    }

    /// A lexed start tag.
    struct Tag {
        /// The lowercased tag name.
        var name: String
        /// Attributes in source order; later duplicates are dropped, as browsers and libxml2 do.
        var attributes: [Attribute]
        /// The index of the closing `>`, or the buffer's end when the tag is unterminated.
        var end: Int

        /// The first attribute with this lowercased name (of at most ``ElementName/capacity``
        /// bytes; a longer name is never found).
        func attribute(_ name: String) -> Attribute? {
            guard let key = Self.key(of: name) else { return nil }
            return attribute(key)
        }

        /// The first attribute whose lowercased name is `key`.
        func attribute(_ key: ElementName) -> Attribute? {
            for attribute in attributes where attribute.key == key { return attribute }
            return nil
        }

        /// The two-word copy of a lowercase name, or nil when it is too long.
        static func key(of name: String) -> ElementName? {
            var name = name
            return name.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return nil }
                return ElementName(lowercasing: base, count: bytes.count)
            }
        }
    }

    /// The attribute's lowercased name, read from `bytes` (the buffer it was lexed from).
    static func name(of attribute: Attribute, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        lowercasedName(bytes, attribute.nameSpan)
    }

    /// The two-word key of the name at `range`; nil for a name too long for one, or holding a
    /// NUL byte (the words are zero-padded: `a\0` would be `a`).
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> ElementName? {
        guard range.count <= ElementName.capacity, let base = bytes.baseAddress else { return nil }
        for i in range where bytes[i] == 0 { return nil }
        return ElementName(lowercasing: base + range.lowerBound, count: range.count)
    }

    /// Whether the names at `a` and `b` of `bytes` are the same but for ASCII case.
    private static func sameName(_ a: Range<Int>, _ b: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var j = b.lowerBound
        for i in a {
            guard lowercased(bytes[i]) == lowercased(bytes[j]) else { return false }
            j += 1
        }
        return true
    }

    /// `byte` with an ASCII capital letter made small.
    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    /// Lowercased ASCII string of a byte range.
    static func lowercasedName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { out in
            var i = 0
            for p in range {
                let b = bytes[p]
                out[i] = (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b
                i += 1
            }
            return i
        }
    }

    /// Lexes the start tag whose `<` is at `start`.
    ///
    /// - Parameters:
    ///   - bytes: The whole document.
    ///   - start: Index of the `<`.
    /// - Returns: The tag, or nil when `start` is not `<` followed by an ASCII letter.
    static func lex(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Tag? {
        var storage: [Attribute] = []
        return lex(bytes, at: start, reusing: &storage)
    }

    /// ``lex(_:at:)`` with the attributes gathered in `storage`, whose buffer the tag shares:
    /// once that tag is dropped, the next call reuses the buffer instead of allocating one.
    static func lex(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, reusing storage: inout [Attribute]) -> Tag? {
        let n = bytes.count
        guard start + 1 < n, bytes[start] == 0x3C else { return nil }
        let first = bytes[start + 1] | 0x20
        guard first >= 0x61 && first <= 0x7A else { return nil }
        var i = start + 1
        while i < n, !isSpace(bytes[i]), bytes[i] != 0x2F, bytes[i] != 0x3E { i += 1 }
        let name = lowercasedName(bytes, (start + 1)..<i)
        storage.removeAll(keepingCapacity: true)
        if storage.capacity < 8 { storage.reserveCapacity(8) }  // enough for nearly every tag
        while true {
            let attributeStart = i
            while i < n, isSpace(bytes[i]) || bytes[i] == 0x2F { i += 1 }
            guard i < n else { return Tag(name: name, attributes: storage, end: n) }
            if bytes[i] == 0x3E { return Tag(name: name, attributes: storage, end: i) }
            // Attribute name: the first character may be '='.
            let nameStart = i
            i += 1
            while i < n, !isSpace(bytes[i]), bytes[i] != 0x2F, bytes[i] != 0x3E, bytes[i] != 0x3D { i += 1 }
            let nameRange = nameStart..<i
            while i < n, isSpace(bytes[i]) { i += 1 }
            var valueSpan = nameRange.upperBound..<nameRange.upperBound
            var quote = Reference.Quote.none
            var end = nameRange.upperBound
            if i < n, bytes[i] == 0x3D {
                i += 1
                while i < n, isSpace(bytes[i]) { i += 1 }
                if i < n, bytes[i] == 0x22 || bytes[i] == 0x27 {
                    let q = bytes[i]
                    quote = q == 0x22 ? .double : .single
                    let valueStart = i + 1
                    i = valueStart
                    while i < n, bytes[i] != q { i += 1 }
                    valueSpan = valueStart..<i
                    if i < n { i += 1 }
                    end = i
                } else {
                    let valueStart = i
                    while i < n, !isSpace(bytes[i]), bytes[i] != 0x3E { i += 1 }
                    valueSpan = valueStart..<i
                    end = i
                }
            } else {
                // No value: the whitespace we skipped belongs to the next attribute.
                i = nameRange.upperBound
            }
            let key = Self.key(bytes, nameRange)
            var duplicate = false
            for earlier in storage {
                if let key {
                    if earlier.key == key { duplicate = true; break }
                } else if earlier.key == nil, sameName(earlier.nameSpan, nameRange, in: bytes) {
                    duplicate = true
                    break
                }
            }
            if !duplicate {
                storage.append(Attribute(
                    nameSpan: nameRange, key: key, valueSpan: valueSpan, quote: quote, fullSpan: attributeStart..<end))
            }
        }
    }
}
