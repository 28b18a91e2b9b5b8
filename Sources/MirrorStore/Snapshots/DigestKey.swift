/// A SHA-256 digest as four words: the key of the ``OriginalsPack`` index (``DigestTable``) in
/// 32 bytes, where its 64-character hex text took a heap string of about 100 bytes.
struct DigestKey: Hashable, Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of a lower- or upper-case hex text of 64 digits; nil for anything else.
    init?(hex: String) {
        var parsed: [UInt64] = []
        parsed.reserveCapacity(4)
        var word: UInt64 = 0
        var digits = 0
        for byte in hex.utf8 {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            word = word << 4 | UInt64(value)
            digits += 1
            if digits % 16 == 0 {
                parsed.append(word)
                word = 0
            }
            if digits > 64 { return nil }
        }
        guard digits == 64 else { return nil }
        words = (parsed[0], parsed[1], parsed[2], parsed[3])
    }

    /// The lower-case hex text.
    var hex: String {
        func digits(_ word: UInt64) -> String {
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return digits(words.0) + digits(words.1) + digits(words.2) + digits(words.3)
    }

    static func == (a: DigestKey, b: DigestKey) -> Bool {
        a.words == b.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }

    /// Bits for a table slot: a SHA-256 is uniformly distributed already.
    var slotHash: Int { Int(truncatingIfNeeded: words.0 ^ words.3) }
}
