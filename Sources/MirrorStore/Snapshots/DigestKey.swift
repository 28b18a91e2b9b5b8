/// A SHA-256 digest as four words: the key of the ``OriginalsPack`` index (``DigestTable``) in
/// 32 bytes, where its 64-character hex text took a heap string of about 100 bytes.
struct DigestKey: Hashable, Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of a lower- or upper-case hex text of 64 digits; nil for anything else.
    init?(hex: String) {
        var text = hex
        // Over the contiguous bytes, four words in place (no array): once per document a refresh
        // carries over, and a manifest's whole index when a pack is opened.
        let parsed = text.withUTF8 { bytes -> (UInt64, UInt64, UInt64, UInt64)? in
            guard bytes.count == 64 else { return nil }
            func word(at start: Int) -> UInt64? {
                var word: UInt64 = 0
                for byte in bytes[start..<(start + 16)] {
                    let value: UInt8
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte &- UInt8(ascii: "0")
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte &- UInt8(ascii: "a") &+ 10
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte &- UInt8(ascii: "A") &+ 10
                    default: return nil
                    }
                    word = word << 4 | UInt64(value)
                }
                return word
            }
            guard let a = word(at: 0), let b = word(at: 16), let c = word(at: 32), let d = word(at: 48) else { return nil }
            return (a, b, c, d)
        }
        guard let parsed else { return nil }
        words = parsed
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

    /// A 64-bit fingerprint of all 256 bits, which the pack's table keeps (``DigestTable``):
    /// a SipHash whose seed is random for each process, so it is never stored.
    var fingerprint: UInt64 {
        var hasher = Hasher()
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
