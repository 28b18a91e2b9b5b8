/// An element name of at most 16 bytes, held in two words: a name to compare and hash without
/// a heap copy (``HTMLReferenceCollector`` classifies every start tag of a page by its name).
struct ElementName: Hashable {
    /// The longest name that fits. Every element the collector looks for is shorter.
    static let capacity = 16

    /// The name's bytes in order, little-endian, zero-padded: no two names of at most
    /// ``capacity`` bytes without NUL share both words.
    private let low: UInt64
    private let high: UInt64

    /// No name: the two words of an empty string, which no element has (an empty slot of
    /// ``ElementNameTable``).
    static let empty = ElementName(low: 0, high: 0)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The slot of ``ElementNameTable`` (of `capacity` slots, a power of two) where a search
    /// for this name starts: the top bits of one multiplicative mix of both words.
    @inline(__always)
    func slot(capacity: Int) -> Int {
        let mixed = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 40) & (capacity - 1)
    }

    /// The name ending at the first NUL of `text`, or nil when it is longer than ``capacity``.
    /// Reads no byte past that NUL.
    init?(_ text: UnsafePointer<CChar>) {
        var words: (UInt64, UInt64) = (0, 0)
        var index = 0
        while true {
            let byte = UInt8(bitPattern: text[index])
            if byte == 0 { break }
            guard index < Self.capacity else { return nil }
            let shift = UInt64((index & 7) * 8)
            if index < 8 { words.0 |= UInt64(byte) << shift } else { words.1 |= UInt64(byte) << shift }
            index += 1
        }
        low = words.0
        high = words.1
    }

    /// The lowercased name of the `count` bytes at `bytes` (ASCII letters are lowercased, as
    /// libxml2 lowercases names), or nil when it is longer than ``capacity``.
    init?(lowercasing bytes: UnsafePointer<UInt8>, count: Int) {
        guard count <= Self.capacity else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for index in 0..<count {
            var byte = bytes[index]
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            let shift = UInt64((index & 7) * 8)
            if index < 8 { words.0 |= UInt64(byte) << shift } else { words.1 |= UInt64(byte) << shift }
        }
        low = words.0
        high = words.1
    }
}
