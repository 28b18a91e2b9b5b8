import Testing
@testable import MirrorCore

/// `RecordPlaces`: each record's offset and length come back, whether it follows the one
/// before it, jumps elsewhere, or is too long for the lengths' type.
struct RecordPlacesTests {
    /// 8-bit lengths reach the reserved value (255) cheaply: a record of 254 bytes is kept as a
    /// length, one of 255 or more aside; jumps anywhere in a block and at its start.
    @Test func placesComeBackAcrossBlocksJumpsAndLongRecords() {
        var places = RecordPlaces<UInt8>()
        var expected: [(offset: Int64, length: Int)] = []
        var generator = SystemRandomNumberGenerator()
        var end: Int64 = 0
        for i in 0..<1_000 {
            let length = [0, 1, 17, 254, 255, 256, 4_000][Int.random(in: 0..<7, using: &generator)]
            // Mostly right after the last one; sometimes elsewhere (another writer in between).
            let offset = i % 9 == 4 || i % 64 == 0 && i % 128 == 0 ? end + Int64.random(in: 1...500, using: &generator) : end
            places.append(offset: offset, length: length)
            expected.append((offset, length))
            end = offset + Int64(length)
            #expect(places.end == end)
        }
        #expect(places.count == expected.count)
        for (i, place) in expected.enumerated() {
            let found = places.place(of: i)
            #expect(found.offset == place.offset && found.length == place.length, "\(i)")
            #expect(places.length(of: i) == place.length)
        }
    }

    /// Records that all follow each other cost their lengths and one offset per block.
    @Test func contiguousRecordsKeepLengthsOnly() {
        var places = RecordPlaces<UInt16>()
        for i in 0..<(RecordPlaces<UInt16>.blockSize * 100) { places.append(offset: Int64(i * 10), length: 10) }
        #expect(places.place(of: 6_399) == (63_990, 10))
        #expect(places.storageBytes <= 6_400 * 2 + 4_096 * 2 + 128 * 8)
    }
}
