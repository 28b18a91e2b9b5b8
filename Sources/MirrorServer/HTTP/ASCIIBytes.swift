/// Appending ASCII text and numbers to a byte buffer, for response heads built without
/// intermediate strings.
extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text`.
    /// - Parameter text: the text.
    @inline(__always)
    mutating func append(ascii text: String) {
        append(contentsOf: text.utf8)
    }

    /// Appends `CR LF`.
    @inline(__always)
    mutating func appendCRLF() {
        append(0x0D)
        append(0x0A)
    }

    /// Appends a number in decimal (a `-` first when negative).
    /// - Parameter value: the number.
    mutating func append(decimal value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        append(digits: value.magnitude, radix: 10)
    }

    /// Appends a number in lowercase hexadecimal, without leading zeros.
    /// - Parameter value: the number.
    mutating func append(hex value: UInt64) {
        append(digits: value, radix: 16)
    }

    /// Appends a number in lowercase hexadecimal, without leading zeros (a `-` first when
    /// negative, as `String(_:radix:)` writes it).
    /// - Parameter value: the number.
    mutating func append(hex value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        append(digits: value.magnitude, radix: 16)
    }

    /// Appends a number as exactly two decimal digits (`07`).
    /// - Parameter value: 0–99.
    mutating func append(twoDigits value: Int) {
        append(UInt8(truncatingIfNeeded: 0x30 + value / 10 % 10))
        append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
    }

    private mutating func append(digits value: UInt64, radix: UInt64) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 decimal digits
        Swift.withUnsafeMutableBytes(of: &scratch) { buffer in
            var index = buffer.count
            var rest = value
            repeat {
                let digit = UInt8(truncatingIfNeeded: rest % radix)
                index -= 1
                buffer[index] = digit < 10 ? 0x30 + digit : 0x57 + digit
                rest /= radix
            } while rest != 0
            append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }
}
