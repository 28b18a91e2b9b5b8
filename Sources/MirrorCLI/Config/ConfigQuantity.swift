/// Sizes and durations as people write them in the config: `"256MiB"`, `"500KB"`, `"30s"`,
/// `"1h30m"`. Pure functions, so the reader and the redacted dump agree on the notation.
enum ConfigQuantity {
    /// Byte units, case-insensitive: decimal (`KB` = 1000) and binary (`KiB` = 1024).
    static let sizeUnits: [(unit: String, factor: Int64)] = [
        ("b", 1), ("kb", 1_000), ("mb", 1_000_000), ("gb", 1_000_000_000), ("tb", 1_000_000_000_000),
        ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("tib", 1 << 40),
    ]

    /// Duration units in seconds: `ms`, `s`, `m`, `h`, `d`, `w`.
    static let durationUnits: [(unit: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400), ("w", 604_800),
    ]

    /// Parses a size such as `"256MiB"`, `"1.5 GB"` or `"4096"` (bytes). Fractions are rounded
    /// down to whole bytes.
    ///
    /// - Parameter text: the size; a number with an optional unit.
    /// - Returns: the byte count, or `nil` when the text is not a size or exceeds `Int64`.
    static func bytes(_ text: String) -> Int64? {
        let (number, unit) = split(text.trimmingSpaces)
        guard let value = Double(number), value.isFinite, number.first != "." else { return nil }
        let factor: Int64
        if unit.isEmpty {
            factor = 1
        } else if let match = sizeUnits.first(where: { $0.unit == unit.lowercased() }) {
            factor = match.factor
        } else {
            return nil
        }
        let total = value * Double(factor)
        guard total < 9.2e18 else { return nil }
        return Int64(total)
    }

    /// Parses a duration such as `"30s"`, `"10m"`, `"1h30m"`, `"1.5d"` or `"250ms"`; a bare
    /// number is seconds.
    ///
    /// - Parameter text: the duration; one or more number-and-unit parts.
    /// - Returns: the duration in seconds, or `nil` when the text is not a duration.
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text.trimmingSpaces)
        guard !rest.isEmpty else { return nil }
        if let plain = Double(rest), plain.isFinite, plain >= 0, rest.first?.isNumber == true { return plain }
        var total = 0.0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let value = Double(digits), digits.first != ".", !unit.isEmpty,
                  let match = durationUnits.first(where: { $0.unit == unit.lowercased() }) else { return nil }
            total += value * match.seconds
        }
        return total.isFinite ? total : nil
    }

    /// The shortest exact spelling of a byte count: `"256MiB"` when it is a whole number of a
    /// binary unit, otherwise the plain number.
    static func formatBytes(_ bytes: Int64) -> ConfigJSON {
        for (unit, factor) in [("TiB", Int64(1) << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= factor && bytes % factor == 0 {
            return .string("\(bytes / factor)\(unit)")
        }
        return .number(String(bytes))
    }

    /// A duration as the config would write it: `"10m"`, `"1h30m"`, `"1.5s"`, `"0s"`.
    static func formatSeconds(_ seconds: Double) -> ConfigJSON {
        guard seconds == seconds.rounded(), seconds < 1e15 else { return .string("\(seconds)s") }
        var rest = Int64(seconds)
        guard rest > 0 else { return .string("0s") }
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return .string(text)
    }

    /// A number as JSON text: whole numbers without a fraction, others as Swift prints them.
    static func formatNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Splits `"1.5 GiB"` into `("1.5", "GiB")`.
    private static func split(_ text: String) -> (String, String) {
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = text.dropFirst(number.count).trimmingSpaces
        return (String(number), unit)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
