/// One `Allow`/`Disallow` path pattern, normalised and ready to match.
struct RobotsPattern: Sendable {
    /// The normalised pattern, `*` as wildcard, without a final `$`.
    private let bytes: [UInt8]
    /// True when the pattern ended with `$`: the URL must end where the pattern ends.
    private let anchored: Bool
    /// The pattern's length in octets after normalisation: a longer match is more specific.
    let length: Int

    /// Normalises a pattern as written in the file.
    init(_ raw: [UInt8]) {
        var pattern = RobotsPattern.normalize(raw)
        length = pattern.count
        anchored = pattern.last == UInt8(ascii: "$")
        if anchored { pattern.removeLast() }
        // Collapse runs of `*`; a trailing `*` of an unanchored pattern adds nothing.
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(pattern.count)
        for byte in pattern where !(byte == UInt8(ascii: "*") && collapsed.last == UInt8(ascii: "*")) {
            collapsed.append(byte)
        }
        if !anchored, collapsed.last == UInt8(ascii: "*") { collapsed.removeLast() }
        bytes = collapsed
    }

    /// Whether the pattern matches a normalised path: a prefix match, or a full match when
    /// anchored.
    ///
    /// The classic greedy wildcard match with backtracking to the last `*`: linear in the
    /// common case, at worst proportional to path length times pattern length.
    func matches(_ path: [UInt8]) -> Bool {
        let star = UInt8(ascii: "*")
        var p = 0
        var s = 0
        var lastStar = -1
        var resume = 0
        while s < path.count {
            if p == bytes.count, !anchored { return true }
            if p < bytes.count, bytes[p] == star {
                lastStar = p
                resume = s
                p += 1
            } else if p < bytes.count, bytes[p] == path[s] {
                p += 1
                s += 1
            } else if lastStar >= 0 {
                p = lastStar + 1
                resume += 1
                s = resume
            } else {
                return false
            }
        }
        while p < bytes.count, bytes[p] == star { p += 1 }
        return p == bytes.count
    }

    /// Normalises percent-encoding for matching (RFC 9309 §2.2.2): `%XX` of an unreserved
    /// character is decoded, other `%XX` get upper-case hex, a stray `%` becomes `%25`, and
    /// bytes that may not appear raw in a URL (controls, space, non-ASCII) are encoded.
    static func normalize(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < raw.count, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2]) {
                    let value = high << 4 | low
                    if isUnreserved(value) { out.append(value) } else { appendEncoded(value, to: &out) }
                    index += 3
                    continue
                }
                appendEncoded(byte, to: &out)
            } else if byte <= 0x20 || byte >= 0x7F {
                appendEncoded(byte, to: &out)
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private static func appendEncoded(_ byte: UInt8, to out: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }
}
