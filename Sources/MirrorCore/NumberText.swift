/// Numbers as text for messages, without Foundation's formatters.
///
/// `String(format:)` goes through CoreFoundation and `ByteCountFormatter` through
/// `NumberFormatter`, which loads ICU number formats on first use. These functions give the
/// same text for the cases mtls-mirror prints, with fixed English conventions (`.` for the
/// decimal point, `,` between groups of thousands).
public enum NumberText {
    /// A byte count the way `ByteCountFormatter.string(fromByteCount:countStyle: .binary)`
    /// writes it in English, except zero: `0 bytes` (Foundation's `Zero KB` read oddly in
    /// "0 bytes in 0.2 s (0 bytes/s)"), `1 byte`, `1,023 bytes`, `2 KB`, `9.6 MB`, `1.25 GB`.
    ///
    /// Units are powers of 1024 named KB, MB, GB, TB, PB, EB; the largest unit that is at most
    /// the count is used. KB are whole numbers, MB have up to one decimal, GB and above up to
    /// two; trailing zeros are dropped (`1 MB`, not `1.0 MB`). Rounding is to the nearest,
    /// halves to even (`1.5 KB` is `2 KB`, `2.5 KB` is `2 KB`), so a count just under a unit
    /// can show as `1,024 KB` exactly as Foundation does.
    /// - Parameter count: the number of bytes; negative counts get a leading `-`.
    public static func byteCount(_ count: Int64) -> String {
        if count == 0 { return "0 bytes" }
        let sign = count < 0 ? "-" : ""
        // Foundation divides a Double: above 2^53 the count is first rounded to one, which can
        // move it into the next unit (2^60 - 1 is `1 EB`). Do the same.
        let magnitude = count.magnitude < 1 << 53 ? count.magnitude : UInt64(Double(count.magnitude))
        if magnitude == 1 { return sign + "1 byte" }
        if magnitude < 1024 { return sign + grouped(magnitude) + " bytes" }
        let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
        var level = 1
        while level < units.count, magnitude >> (10 * UInt64(level + 1)) > 0 { level += 1 }
        let fractionDigits = level == 1 ? 0 : level == 2 ? 1 : 2
        let scale = power(of10: fractionDigits)
        let product = magnitude.multipliedFullWidth(by: scale)
        let scaled = roundHalfEven(high: product.high, low: product.low, shift: 10 * level)
        var text = sign + grouped(scaled / scale)
        if fractionDigits > 0 {
            var fraction = Array(String(scaled % scale).utf8)
            fraction.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: fractionDigits - fraction.count), at: 0)
            while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + String(decoding: fraction, as: UTF8.self) }
        }
        return text + " " + units[level - 1]
    }

    /// A number with a fixed count of decimals, as C's `printf("%.<n>f")` writes it:
    /// `fixed(12.25, fractionDigits: 1)` is `12.2`.
    ///
    /// The exact binary value is rounded, halves to even, so the text is identical to
    /// `String(format: "%.1f", value)`: `0.05` (really 0.05000000000000000277) gives `0.1`,
    /// `0.25` gives `0.2`. A negative value keeps its sign even when it rounds to zero (`-0.0`);
    /// NaN and infinities give `nan`, `inf`, `-inf`.
    /// - Parameters:
    ///   - value: the number.
    ///   - fractionDigits: decimals after the point, 0...9 (clamped).
    public static func fixed(_ value: Double, fractionDigits: Int) -> String {
        if value.isNaN { return "nan" }
        let sign = value.sign == .minus ? "-" : ""
        if value.isInfinite { return sign + "inf" }
        let digits = min(max(fractionDigits, 0), 9)
        let magnitude = value.magnitude
        var integer: String
        var fraction: UInt64 = 0
        if magnitude >= 9_007_199_254_740_992 {  // 2^53 and above: an integer, no fraction
            integer = integerText(magnitude)
        } else {
            var whole = UInt64(magnitude.rounded(.down))
            let part = magnitude - magnitude.rounded(.down)  // exact
            let scale = power(of10: digits)
            if part > 0 {
                let significand = part.isSubnormal ? part.significandBitPattern : part.significandBitPattern | 1 << 52
                let exponent = part.isSubnormal ? -1074 : Int(part.exponent) - 52
                let product = significand.multipliedFullWidth(by: scale)
                fraction = roundHalfEven(high: product.high, low: product.low, shift: -exponent,
                                         oddBelow: digits == 0 && whole % 2 == 1)
            }
            if fraction == scale {
                whole += 1
                fraction = 0
            }
            integer = String(whole)
        }
        guard digits > 0 else { return sign + integer }
        let fractionText = String(fraction)
        return sign + integer + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }

    /// A non-negative number in `radix`, left-padded with zeros to `width` digits, as
    /// `printf("%06d")` or `"%02x"` write it (`zeroPadded(255, width: 2, radix: 16)` is `ff`).
    /// A negative number gets `-` before the zeros (`-00042`), as `printf` does.
    /// - Parameters:
    ///   - value: the number.
    ///   - width: the least number of characters.
    ///   - radix: 2...36; letters are lower case.
    public static func zeroPadded(_ value: Int, width: Int, radix: Int = 10) -> String {
        let digits = String(value.magnitude, radix: radix)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }

    // MARK: Helpers

    static func power(of10 exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// `(high·2⁶⁴ + low) / 2^shift`, rounded to the nearest integer, halves to even (or up,
    /// when `oddBelow` says the digit the result is added to is odd and the result is 0).
    /// The quotient must fit in 64 bits.
    static func roundHalfEven(high: UInt64, low: UInt64, shift: Int, oddBelow: Bool = false) -> UInt64 {
        func bit(_ index: Int) -> Bool {
            if index >= 128 || index < 0 { return false }
            return index >= 64 ? (high >> UInt64(index - 64)) & 1 == 1 : (low >> UInt64(index)) & 1 == 1
        }
        func anyBelow(_ index: Int) -> Bool {  // any bit in 0..<index set
            if index <= 0 { return false }
            if index >= 128 { return high != 0 || low != 0 }
            if index > 64 { return low != 0 || high & ((1 << UInt64(index - 64)) - 1) != 0 }
            return index == 64 ? low != 0 : low & ((1 << UInt64(index)) - 1) != 0
        }
        let quotient: UInt64
        if shift >= 128 {
            quotient = 0
        } else if shift >= 64 {
            quotient = high >> UInt64(shift - 64)
        } else if shift == 0 {
            return low
        } else {
            quotient = (low >> UInt64(shift)) | (high << UInt64(64 - shift))
        }
        guard bit(shift - 1) else { return quotient }
        if anyBelow(shift - 1) { return quotient + 1 }
        let odd = quotient == 0 ? oddBelow : quotient & 1 == 1
        return odd ? quotient + 1 : quotient
    }

    /// A whole number in groups of three digits: `1,234,567`.
    static func grouped(_ value: UInt64) -> String {
        let digits = Array(String(value).utf8)
        var result: [UInt8] = []
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(UInt8(ascii: ",")) }
            result.append(digit)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The exact decimal digits of an integral double of any size (base-10⁹ limbs, doubled).
    static func integerText(_ value: Double) -> String {
        let exponent = Int(value.exponent) - 52
        var limbs: [UInt64] = [value.significandBitPattern | 1 << 52]  // < 2^53, normalised below
        func normalise() {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let total = limbs[index] + carry
                limbs[index] = total % 1_000_000_000
                carry = total / 1_000_000_000
            }
            while carry > 0 { limbs.append(carry % 1_000_000_000); carry /= 1_000_000_000 }
        }
        normalise()
        for _ in 0..<max(0, exponent) {
            for index in limbs.indices { limbs[index] *= 2 }
            normalise()
        }
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
