/// Helpers that turn libFuzzer's bytes into structured inputs, deterministically.
enum FuzzInput {
    /// The separator between the document and an optional replacement URL: two bytes that
    /// hand-written inputs never contain by accident, which libFuzzer's comparison tracing
    /// finds quickly.
    static let separator: [UInt8] = [0xFF, 0x00]

    /// Splits `data` at the first ``separator``: the part before, and the part after if any.
    static func splitTrailer(_ data: [UInt8]) -> (body: [UInt8], trailer: [UInt8]?) {
        guard data.count >= 2 else { return (data, nil) }
        for index in 0..<(data.count - 1) where data[index] == separator[0] && data[index + 1] == separator[1] {
            return (Array(data[..<index]), Array(data[(index + 2)...]))
        }
        return (data, nil)
    }

    /// FNV-1a over the bytes: the seed of ``SplitMix`` for input-derived choices.
    static func hash(_ data: [UInt8]) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return value
    }
}

/// A tiny deterministic generator (SplitMix64) for split points derived from the input.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `1...upper`.
    mutating func next(upTo upper: Int) -> Int { Int(next() % UInt64(upper)) + 1 }
}
