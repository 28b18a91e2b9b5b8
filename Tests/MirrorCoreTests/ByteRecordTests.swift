import Testing
@testable import MirrorCore

@Suite struct ByteRecordTests {
    @Test(arguments: [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 32, UInt64.max] as [UInt64])
    func numbersRoundTrip(_ value: UInt64) {
        var writer = ByteRecord.Writer()
        writer.number(value)
        #expect(writer.bytes.count == max(1, (64 - value.leadingZeroBitCount + 6) / 7))
        writer.bytes.withUnsafeBytes { bytes in
            var reader = ByteRecord.Reader(bytes)
            #expect(reader.number() == value)
            #expect(reader.isAtEnd)
        }
    }

    @Test func textsBytesAndOptionalsRoundTrip() {
        var writer = ByteRecord.Writer()
        writer.text("café ☕")
        writer.text("")
        writer.byte(7)
        writer.optionalText(nil)
        writer.optionalText("x")
        writer.bytes.withUnsafeBytes { bytes in
            var reader = ByteRecord.Reader(bytes)
            #expect(reader.text() == "café ☕")
            #expect(reader.text() == "")
            #expect(reader.byte() == 7)
            #expect(reader.optionalText() == .some(nil))
            #expect(reader.optionalText() == .some("x"))
            #expect(reader.isAtEnd && reader.isValid)
        }
    }

    /// Short or damaged input answers nil and leaves the reader failed; it never traps.
    @Test func damagedInputIsNil() {
        var writer = ByteRecord.Writer()
        writer.text("hello")
        writer.number(UInt64.max)
        let record = writer.bytes
        for cut in 0..<record.count {
            Array(record.prefix(cut)).withUnsafeBytes { bytes in
                var reader = ByteRecord.Reader(bytes)
                let text = reader.text()
                let number = reader.number()
                #expect(text == nil || number == nil, "cut at \(cut)")
                #expect(!reader.isValid)
            }
        }
        // Eleven continuation bytes are more than 64 bits.
        [UInt8](repeating: 0xFF, count: 11).withUnsafeBytes { bytes in
            var reader = ByteRecord.Reader(bytes)
            #expect(reader.number() == nil)
        }
        // A length beyond the record.
        [UInt8]([200, 1, 0x41]).withUnsafeBytes { bytes in
            var reader = ByteRecord.Reader(bytes)
            #expect(reader.text() == nil)
        }
        // An optional text's flag must be 0 or 1.
        [UInt8]([2]).withUnsafeBytes { bytes in
            var reader = ByteRecord.Reader(bytes)
            #expect(reader.optionalText() == nil)
        }
    }
}
