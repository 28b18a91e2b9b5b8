/// Decodes CSS escapes (CSS Syntax Level 3 §4.3.7) in the content of a string or url token.
enum CSSEscapes {
    /// Returns the text of `bytes[range]` with escapes decoded and, inside strings, escaped
    /// newlines removed. Other bytes are read with `charset`.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: A token's content.
    ///   - charset: The document's character set.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, charset: Charset) -> String {
        var hasBackslash = false
        for i in range where bytes[i] == 0x5C { hasBackslash = true; break }
        if !hasBackslash { return charset.decode(UnsafeBufferPointer(rebasing: bytes[range])) }
        var out = ""
        var chunk = range.lowerBound
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            guard bytes[i] == 0x5C else { i += 1; continue }
            out += charset.decode(UnsafeBufferPointer(rebasing: bytes[chunk..<i]))
            var j = i + 1
            if j >= end {
                out.unicodeScalars.append("\u{FFFD}")
            } else if bytes[j] == 0x0A || bytes[j] == 0x0C || bytes[j] == 0x0D {
                j += (bytes[j] == 0x0D && j + 1 < end && bytes[j + 1] == 0x0A) ? 2 : 1
            } else if CSSTokenizer.isHex(bytes[j]) {
                var value: UInt32 = 0
                let start = j
                while j < end, j - start < 6, CSSTokenizer.isHex(bytes[j]) {
                    let b = bytes[j] | 0x20
                    value = value * 16 + UInt32(b >= 0x61 ? b - 0x61 + 10 : b - 0x30)
                    j += 1
                }
                if j < end, CSSTokenizer.isWhitespace(bytes[j]) {
                    j += (bytes[j] == 0x0D && j + 1 < end && bytes[j + 1] == 0x0A) ? 2 : 1
                }
                let valid = value != 0 && value <= 0x10FFFF && !(value >= 0xD800 && value <= 0xDFFF)
                out.unicodeScalars.append(valid ? Unicode.Scalar(value) ?? "\u{FFFD}" : "\u{FFFD}")
            } else {
                // One escaped character, which may be a multi-byte UTF-8 sequence.
                var k = j + 1
                if bytes[j] >= 0xC0 { while k < end, bytes[k] & 0xC0 == 0x80 { k += 1 } }
                out += charset.decode(UnsafeBufferPointer(rebasing: bytes[j..<k]))
                j = k
            }
            i = j
            chunk = j
        }
        out += charset.decode(UnsafeBufferPointer(rebasing: bytes[chunk..<end]))
        return out
    }
}
