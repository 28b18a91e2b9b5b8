/// Finds the URL in a `<meta http-equiv=refresh>` `content` value, following the HTML
/// standard's "shared declarative refresh steps" (§4.2.5.3): a time, then `;` or `,`, then
/// optionally `URL=`, then the URL, possibly in single or double quotes.
enum MetaRefreshParser {
    /// The URL's raw span (inside any quotes) and its quoting.
    struct Result: Equatable {
        var span: Range<Int>
        var quote: Reference.Quote
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    /// Parses `bytes[range]` (the raw content value).
    ///
    /// - Returns: The URL's span, or nil when the value names no URL (`content="5"`).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Result? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end, isSpace(bytes[i]) { i += 1 }
        let timeStart = i
        while i < end, (bytes[i] >= 0x30 && bytes[i] <= 0x39) || bytes[i] == 0x2E { i += 1 }
        guard i > timeStart else { return nil }
        while i < end, isSpace(bytes[i]) { i += 1 }
        guard i < end, bytes[i] == 0x3B || bytes[i] == 0x2C else { return nil }
        i += 1
        while i < end, isSpace(bytes[i]) { i += 1 }
        guard i < end else { return nil }
        // Optional "URL" then "=".
        if i + 2 < end, bytes[i] | 0x20 == 0x75, bytes[i + 1] | 0x20 == 0x72, bytes[i + 2] | 0x20 == 0x6C {
            var j = i + 3
            while j < end, isSpace(bytes[j]) { j += 1 }
            if j < end, bytes[j] == 0x3D {
                j += 1
                while j < end, isSpace(bytes[j]) { j += 1 }
                i = j
            }
        }
        guard i < end else { return nil }
        if bytes[i] == 0x22 || bytes[i] == 0x27 {
            let q = bytes[i]
            let start = i + 1
            var j = start
            while j < end, bytes[j] != q { j += 1 }
            guard j > start else { return nil }
            return Result(span: start..<j, quote: q == 0x22 ? .double : .single)
        }
        var j = end
        while j > i, isSpace(bytes[j - 1]) { j -= 1 }
        return Result(span: i..<j, quote: .none)
    }
}
