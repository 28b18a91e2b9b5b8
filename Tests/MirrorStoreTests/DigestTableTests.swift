import Testing
@testable import MirrorStore

/// `DigestTable`: originals found by digest, their offsets rebuilt from the lengths.
struct DigestTableTests {
    static func key(_ i: Int) -> DigestKey {
        let word = String(UInt64(i) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
        let hex = String(repeating: "0", count: 16 - word.count) + word
        return DigestKey(hex: String(repeating: "a", count: 48) + hex)!
    }

    /// Across several blocks of stored offsets: each original's place is where it was
    /// appended, a digest already there is refused, and one never added is not found.
    @Test func placesFollowTheLengthsAcrossBlocks() throws {
        var table = DigestTable()
        var expected: [(offset: Int64, length: Int)] = []
        var end: Int64 = 0
        for i in 0..<(3 * 64 + 5) {
            let length = i % 7 == 0 ? 0 : (i * 7_919) % 100_000
            let inserted = table.insert(Self.key(i), offset: end, length: length)
            #expect(inserted)
            expected.append((end, length))
            end += Int64(length)
        }
        let again = table.insert(Self.key(64), offset: end, length: 5)
        #expect(!again)
        #expect(table.count == expected.count)
        for (i, place) in expected.enumerated() {
            let found = try #require(table.find(Self.key(i)), "\(i)")
            #expect(found.offset == place.offset && found.length == place.length, "\(i)")
            #expect(table.position(of: Self.key(i)) == i)
            #expect(table.matches(Self.key(i), at: i) && !table.matches(Self.key(i + 1), at: i))
        }
        #expect(table.find(Self.key(100_000)) == nil)
    }

    /// Digests that differ only in their last word are different originals (the fingerprint
    /// covers all 256 bits, not a prefix).
    @Test func everyWordOfTheDigestCounts() throws {
        var table = DigestTable()
        let base = String(repeating: "5", count: 64)
        for position in [0, 20, 40, 63] {
            var bytes = Array(base.utf8)
            bytes[position] = UInt8(ascii: "6")
            let inserted = table.insert(try #require(DigestKey(hex: String(decoding: bytes, as: UTF8.self))), offset: Int64(position), length: 1)
            #expect(inserted, "\(position)")
        }
        let last = table.insert(try #require(DigestKey(hex: base)), offset: 64, length: 1)
        #expect(last)
        #expect(table.count == 5)
    }
}
