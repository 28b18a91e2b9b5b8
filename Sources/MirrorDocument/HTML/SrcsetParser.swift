/// Parses `srcset` attribute values with the HTML standard's algorithm (§4.8.4.3.10 "parse a
/// srcset attribute"), reporting each candidate URL's byte span.
///
/// Candidates are separated by commas that follow a URL's end or a descriptor list; a URL is a
/// run of non-whitespace bytes and may itself contain commas (`data:image/png;base64,AAAA`).
/// Trailing commas of a URL are not part of it. Descriptors (`1x`, `480w`, `(…)`) are returned
/// as written, without validation.
public enum SrcsetParser {
    /// One image candidate.
    public struct Candidate: Sendable, Hashable {
        /// The URL's bytes (raw: entities not decoded) in the parsed buffer.
        public var span: Range<Int>
        /// The descriptors as written, e.g. `["2x"]` or `["480w"]`.
        public var descriptors: [String]
    }

    /// Parses a srcset value.
    ///
    /// - Parameter value: The attribute value.
    /// - Returns: Candidates in order; spans index `value`'s UTF-8 bytes.
    public static func parse(_ value: String) -> [Candidate] {
        let bytes = Array(value.utf8)
        return bytes.withUnsafeBufferPointer { parse($0, range: 0..<$0.count) }
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    /// Parses `bytes[range]`; spans are absolute indexes into `bytes`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> [Candidate] {
        var result: [Candidate] = []
        var i = range.lowerBound
        let end = range.upperBound
        while true {
            while i < end, isSpace(bytes[i]) || bytes[i] == 0x2C { i += 1 }
            guard i < end else { return result }
            let urlStart = i
            while i < end, !isSpace(bytes[i]) { i += 1 }
            var urlEnd = i
            var descriptors: [String] = []
            if bytes[urlEnd - 1] == 0x2C {
                while urlEnd > urlStart, bytes[urlEnd - 1] == 0x2C { urlEnd -= 1 }
            } else {
                descriptors = parseDescriptors(bytes, &i, end)
            }
            if urlEnd > urlStart { result.append(Candidate(span: urlStart..<urlEnd, descriptors: descriptors)) }
        }
    }

    /// The descriptor tokenizer; leaves `i` after the candidate's terminating comma.
    private static func parseDescriptors(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int) -> [String] {
        var descriptors: [String] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty { descriptors.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        while i < end, isSpace(bytes[i]) { i += 1 }
        var inParens = false
        while i < end {
            let c = bytes[i]
            if inParens {
                current.append(c)
                if c == 0x29 { inParens = false }
            } else if isSpace(c) {
                flush()
                while i < end, isSpace(bytes[i]) { i += 1 }
                continue
            } else if c == 0x2C {
                i += 1
                flush()
                return descriptors
            } else {
                if c == 0x28 { inParens = true }
                current.append(c)
            }
            i += 1
        }
        flush()
        return descriptors
    }
}
