/// Decodes HTML character references in attribute values, as the WHATWG tokenizer does in the
/// attribute-value states (§13.2.5.72 "character reference state").
///
/// Numeric references (`&#38;`, `&#x26;`) are fully supported, with the spec's replacements for
/// NUL, surrogates, out-of-range values and the C1 windows-1252 table. Named references cover
/// the ones that occur in URLs and common text (`amp`, `lt`, `gt`, `quot`, `apos`, `nbsp`, …);
/// an unknown name is left as written. As the spec says for attributes, a legacy name without
/// `;` followed by an alphanumeric or `=` is not decoded (`?a=1&copy=2` keeps `&copy`).
enum HTMLEntities {
    /// Names that browsers also accept without the trailing semicolon (a subset of the spec's list).
    private static let legacy: [String: UInt32] = [
        "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "nbsp": 0xA0, "copy": 0xA9, "reg": 0xAE,
        "shy": 0xAD, "deg": 0xB0, "para": 0xB6, "sect": 0xA7, "middot": 0xB7, "laquo": 0xAB,
        "raquo": 0xBB, "times": 0xD7, "divide": 0xF7, "eacute": 0xE9, "egrave": 0xE8, "agrave": 0xE0,
        "uuml": 0xFC, "ouml": 0xF6, "auml": 0xE4, "szlig": 0xDF, "ccedil": 0xE7, "iexcl": 0xA1,
        "pound": 0xA3, "yen": 0xA5, "cent": 0xA2, "not": 0xAC, "micro": 0xB5,
    ]
    /// Names that need the semicolon.
    private static let strict: [String: UInt32] = [
        "apos": 0x27, "hellip": 0x2026, "mdash": 0x2014, "ndash": 0x2013, "lsquo": 0x2018,
        "rsquo": 0x2019, "ldquo": 0x201C, "rdquo": 0x201D, "euro": 0x20AC, "trade": 0x2122,
        "bull": 0x2022, "sol": 0x2F, "colon": 0x3A, "quest": 0x3F, "equals": 0x3D, "num": 0x23,
        "percnt": 0x25, "lpar": 0x28, "rpar": 0x29, "comma": 0x2C, "period": 0x2E, "excl": 0x21,
        "Tab": 0x09, "NewLine": 0x0A, "commat": 0x40, "lowbar": 0x5F, "plus": 0x2B, "semi": 0x3B,
    ]
    /// Windows-1252 replacements for numeric references 0x80–0x9F.
    private static let c1: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Decodes the references in `bytes[range]` and returns the text as a String, reading
    /// other bytes with `charset`.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - range: The raw attribute value.
    ///   - charset: The document's character set, used for bytes that are not references.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, charset: Charset) -> String {
        var hasAmp = false
        for i in range where bytes[i] == 0x26 { hasAmp = true; break }
        if !hasAmp { return charset.decode(UnsafeBufferPointer(rebasing: bytes[range])) }
        var out = ""
        var chunkStart = range.lowerBound
        var i = range.lowerBound
        while i < range.upperBound {
            guard bytes[i] == 0x26, let (scalar, next) = reference(bytes, i, range.upperBound) else {
                i += 1
                continue
            }
            out += charset.decode(UnsafeBufferPointer(rebasing: bytes[chunkStart..<i]))
            out.unicodeScalars.append(scalar)
            i = next
            chunkStart = next
        }
        out += charset.decode(UnsafeBufferPointer(rebasing: bytes[chunkStart..<range.upperBound]))
        return out
    }

    /// Decodes the references in `bytes[range]` to UTF-8 bytes, with a map from each decoded
    /// byte to the raw offset it came from (`map[decoded.count]` is the range's end), so that
    /// spans found in the decoded text can be mapped back to the source.
    static func decodeWithMap(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (decoded: [UInt8], map: [Int]) {
        var decoded: [UInt8] = []
        var map: [Int] = []
        decoded.reserveCapacity(range.count)
        map.reserveCapacity(range.count + 1)
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == 0x26, let (scalar, next) = reference(bytes, i, range.upperBound) {
                for b in String(scalar).utf8 {
                    decoded.append(b)
                    map.append(i)
                }
                i = next
            } else {
                decoded.append(bytes[i])
                map.append(i)
                i += 1
            }
        }
        map.append(range.upperBound)
        return (decoded, map)
    }

    /// Parses the reference starting at the `&` at `at`; returns the scalar and the index after it.
    private static func reference(
        _ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int
    ) -> (Unicode.Scalar, Int)? {
        var i = at + 1
        guard i < end else { return nil }
        if bytes[i] == 0x23 {  // '#'
            i += 1
            var hex = false
            if i < end, bytes[i] | 0x20 == 0x78 { hex = true; i += 1 }
            let digitsStart = i
            var value: UInt32 = 0
            while i < end, let d = digit(bytes[i], hex: hex) {
                value = min(value &* (hex ? 16 : 10) &+ d, 0x110000)
                i += 1
            }
            guard i > digitsStart else { return nil }
            if i < end, bytes[i] == 0x3B { i += 1 }
            return (numericScalar(value), i)
        }
        let nameStart = i
        while i < end, i - nameStart < 32, isAlnum(bytes[i]) { i += 1 }
        guard i > nameStart else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
        if i < end, bytes[i] == 0x3B, let v = legacy[name] ?? strict[name], let s = Unicode.Scalar(v) {
            return (s, i + 1)
        }
        // Without ';': the longest legacy prefix, unless followed by alnum or '=' (attribute rule).
        var length = i - nameStart
        while length > 0 {
            let candidate = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<(nameStart + length)]), as: UTF8.self)
            if let v = legacy[candidate], let s = Unicode.Scalar(v) {
                let after = nameStart + length
                if after < end, isAlnum(bytes[after]) || bytes[after] == 0x3D { return nil }
                return (s, after)
            }
            length -= 1
        }
        return nil
    }

    private static func numericScalar(_ value: UInt32) -> Unicode.Scalar {
        if value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF) { return "\u{FFFD}" }
        if value >= 0x80 && value <= 0x9F, let s = Unicode.Scalar(c1[Int(value - 0x80)]) { return s }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    @inline(__always) private static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }

    @inline(__always) private static func digit(_ b: UInt8, hex: Bool) -> UInt32? {
        if b >= 0x30 && b <= 0x39 { return UInt32(b - 0x30) }
        if hex, b | 0x20 >= 0x61 && b | 0x20 <= 0x66 { return UInt32((b | 0x20) - 0x61 + 10) }
        return nil
    }
}
