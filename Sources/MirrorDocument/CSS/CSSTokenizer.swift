/// A CSS tokenizer following CSS Syntax Level 3 §4.3 ("Tokenizer algorithms"), on bytes.
///
/// It produces tokens lazily (`next()`), skips comments, and handles escapes, both string
/// quotes, unquoted `url(…)` tokens and bad-url recovery. Non-ASCII bytes count as ident
/// characters, which is what the specification says of every code point ≥ U+0080, so the
/// tokenizer works on any ASCII-compatible encoding without decoding.
struct CSSTokenizer {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    let end: Int

    /// Creates a tokenizer over `bytes[range]`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    @inline(__always) private func at(_ i: Int) -> UInt8 { i < end ? bytes[i] : 0 }

    @inline(__always) static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }
    @inline(__always) static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66)
    }
    @inline(__always) static func isIdentStart(_ b: UInt8) -> Bool {
        (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F || b >= 0x80
    }
    @inline(__always) static func isIdent(_ b: UInt8) -> Bool {
        isIdentStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D
    }
    @inline(__always) private func isNewline(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0C || b == 0x0D }

    /// §4.3.8: a backslash not followed by a newline (or EOF counts as valid here, as the spec does for U+FFFD).
    @inline(__always) private func validEscape(_ i: Int) -> Bool {
        i < end && bytes[i] == 0x5C && (i + 1 >= end || !isNewline(bytes[i + 1]))
    }

    /// §4.3.9.
    private func startsIdent(_ i: Int) -> Bool {
        let b = at(i)
        if b == 0x2D {
            let c = at(i + 1)
            return (i + 1 < end && (Self.isIdentStart(c) || c == 0x2D)) || validEscape(i + 1)
        }
        return (i < end && Self.isIdentStart(b)) || validEscape(i)
    }

    /// §4.3.10.
    private func startsNumber(_ i: Int) -> Bool {
        let b = at(i)
        func digit(_ x: UInt8) -> Bool { x >= 0x30 && x <= 0x39 }
        if b == 0x2B || b == 0x2D {
            return (i + 1 < end && digit(at(i + 1))) || (at(i + 1) == 0x2E && i + 2 < end && digit(at(i + 2)))
        }
        if b == 0x2E { return i + 1 < end && digit(at(i + 1)) }
        return i < end && digit(b)
    }

    /// Consumes an escape whose backslash is at `i`; returns the index after it.
    private func skipEscape(_ i: Int) -> Int {
        var j = i + 1
        guard j < end else { return j }
        if Self.isHex(bytes[j]) {
            let start = j
            while j < end, j - start < 6, Self.isHex(bytes[j]) { j += 1 }
            if j < end, Self.isWhitespace(bytes[j]) {
                j += (bytes[j] == 0x0D && at(j + 1) == 0x0A) ? 2 : 1
            }
            return j
        }
        return j + 1
    }

    private func skipIdentSequence(_ i: Int) -> Int {
        var j = i
        while j < end {
            if Self.isIdent(bytes[j]) { j += 1 } else if validEscape(j) { j = skipEscape(j) } else { break }
        }
        return j
    }

    /// Returns the next token, or nil at the end.
    mutating func next() -> CSSToken? {
        // Comments (§4.3.2).
        while position + 1 < end, bytes[position] == 0x2F, bytes[position + 1] == 0x2A {
            var j = position + 2
            while j + 1 < end, !(bytes[j] == 0x2A && bytes[j + 1] == 0x2F) { j += 1 }
            position = j + 1 < end ? j + 2 : end
        }
        guard position < end else { return nil }
        let start = position
        let b = bytes[position]
        func single(_ kind: CSSToken.Kind) -> CSSToken {
            position += 1
            return CSSToken(kind: kind, range: start..<position, content: start..<position)
        }
        switch b {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
            while position < end, Self.isWhitespace(bytes[position]) { position += 1 }
            return CSSToken(kind: .whitespace, range: start..<position, content: start..<position)
        case 0x22, 0x27:
            return consumeString(quote: b)
        case 0x23:
            if position + 1 < end, Self.isIdent(bytes[position + 1]) || validEscape(position + 1) {
                position = skipIdentSequence(position + 1)
                return CSSToken(kind: .hash, range: start..<position, content: (start + 1)..<position)
            }
            return single(.delim)
        case 0x28: return single(.openParen)
        case 0x29: return single(.closeParen)
        case 0x2C: return single(.comma)
        case 0x3A: return single(.colon)
        case 0x3B: return single(.semicolon)
        case 0x5B: return single(.openSquare)
        case 0x5D: return single(.closeSquare)
        case 0x7B: return single(.openCurly)
        case 0x7D: return single(.closeCurly)
        case 0x2B, 0x2E:
            return startsNumber(position) ? consumeNumeric() : single(.delim)
        case 0x2D:
            if startsNumber(position) { return consumeNumeric() }
            if at(position + 1) == 0x2D, at(position + 2) == 0x3E {
                position += 3
                return CSSToken(kind: .cdc, range: start..<position, content: start..<position)
            }
            if startsIdent(position) { return consumeIdentLike() }
            return single(.delim)
        case 0x3C:
            if at(position + 1) == 0x21, at(position + 2) == 0x2D, at(position + 3) == 0x2D {
                position += 4
                return CSSToken(kind: .cdo, range: start..<position, content: start..<position)
            }
            return single(.delim)
        case 0x40:
            if startsIdent(position + 1) {
                position = skipIdentSequence(position + 1)
                return CSSToken(kind: .atKeyword, range: start..<position, content: (start + 1)..<position)
            }
            return single(.delim)
        case 0x5C:
            return validEscape(position) ? consumeIdentLike() : single(.delim)
        case 0x30...0x39:
            return consumeNumeric()
        default:
            return Self.isIdentStart(b) ? consumeIdentLike() : single(.delim)
        }
    }

    /// §4.3.5.
    private mutating func consumeString(quote q: UInt8) -> CSSToken {
        let start = position
        var j = position + 1
        while j < end {
            let c = bytes[j]
            if c == q {
                position = j + 1
                return CSSToken(kind: .string, range: start..<position, content: (start + 1)..<j,
                                quote: q == 0x22 ? .double : .single)
            }
            if isNewline(c) {
                position = j  // the newline is not consumed
                return CSSToken(kind: .badString, range: start..<j, content: (start + 1)..<j)
            }
            if c == 0x5C {
                if j + 1 >= end { j += 1; continue }
                if isNewline(bytes[j + 1]) {
                    j += (bytes[j + 1] == 0x0D && at(j + 2) == 0x0A) ? 3 : 2
                    continue
                }
                j = skipEscape(j)
                continue
            }
            j += 1
        }
        position = end  // EOF: the string ends (a parse error, but a string token)
        return CSSToken(kind: .string, range: start..<end, content: (start + 1)..<end, quote: q == 0x22 ? .double : .single)
    }

    /// §4.3.3.
    private mutating func consumeNumeric() -> CSSToken {
        let start = position
        var j = position
        if at(j) == 0x2B || at(j) == 0x2D { j += 1 }
        while j < end, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1 }
        if at(j) == 0x2E, j + 1 < end, bytes[j + 1] >= 0x30, bytes[j + 1] <= 0x39 {
            j += 2
            while j < end, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1 }
        }
        if at(j) | 0x20 == 0x65 {
            var k = j + 1
            if at(k) == 0x2B || at(k) == 0x2D { k += 1 }
            if k < end, bytes[k] >= 0x30, bytes[k] <= 0x39 {
                j = k
                while j < end, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1 }
            }
        }
        position = j
        if startsIdent(j) {
            position = skipIdentSequence(j)
            return CSSToken(kind: .dimension, range: start..<position, content: start..<position)
        }
        if at(j) == 0x25 {
            position = j + 1
            return CSSToken(kind: .percentage, range: start..<position, content: start..<position)
        }
        return CSSToken(kind: .number, range: start..<position, content: start..<position)
    }

    /// §4.3.4.
    private mutating func consumeIdentLike() -> CSSToken {
        let start = position
        position = skipIdentSequence(position)
        let nameRange = start..<position
        guard at(position) == 0x28 else {
            return CSSToken(kind: .ident, range: nameRange, content: nameRange)
        }
        position += 1
        if nameRange.count == 3, bytes[start] | 0x20 == 0x75, bytes[start + 1] | 0x20 == 0x72,
            bytes[start + 2] | 0x20 == 0x6C
        {
            var j = position
            while j < end, Self.isWhitespace(bytes[j]) { j += 1 }
            if j < end, bytes[j] == 0x22 || bytes[j] == 0x27 {
                return CSSToken(kind: .function, range: start..<position, content: nameRange)
            }
            return consumeURL(start: start, from: j)
        }
        return CSSToken(kind: .function, range: start..<position, content: nameRange)
    }

    /// §4.3.6: an unquoted `url(` token; `from` is after the leading whitespace.
    private mutating func consumeURL(start: Int, from: Int) -> CSSToken {
        var j = from
        let contentStart = j
        while j < end {
            let c = bytes[j]
            if c == 0x29 {
                position = j + 1
                return CSSToken(kind: .url, range: start..<position, content: contentStart..<j)
            }
            if Self.isWhitespace(c) {
                let contentEnd = j
                while j < end, Self.isWhitespace(bytes[j]) { j += 1 }
                if j >= end {
                    position = end
                    return CSSToken(kind: .url, range: start..<end, content: contentStart..<contentEnd)
                }
                if bytes[j] == 0x29 {
                    position = j + 1
                    return CSSToken(kind: .url, range: start..<position, content: contentStart..<contentEnd)
                }
                return consumeBadURL(start: start, from: j)
            }
            if c == 0x22 || c == 0x27 || c == 0x28 || c < 0x09 || (c > 0x0D && c < 0x20) || c == 0x7F || c == 0x0B {
                return consumeBadURL(start: start, from: j)
            }
            if c == 0x5C {
                if validEscape(j) { j = skipEscape(j); continue }
                return consumeBadURL(start: start, from: j)
            }
            j += 1
        }
        position = end
        return CSSToken(kind: .url, range: start..<end, content: contentStart..<end)
    }

    /// §4.3.14: skip to the closing parenthesis (escapes included).
    private mutating func consumeBadURL(start: Int, from: Int) -> CSSToken {
        var j = from
        while j < end {
            if bytes[j] == 0x29 { j += 1; break }
            if validEscape(j) { j = skipEscape(j) } else { j += 1 }
        }
        position = j
        return CSSToken(kind: .badURL, range: start..<j, content: start..<j)
    }
}
