import Foundation

extension UTCTime {
    // MARK: ISO 8601 / RFC 3339

    /// ISO 8601 in UTC: `2026-11-29T23:42:00Z`, or with `milliseconds` `2026-11-29T23:42:00.500Z`.
    ///
    /// Byte-identical to `ISO8601DateFormatter` with `[.withInternetDateTime]` (plus
    /// `.withFractionalSeconds`), including its rounding to the nearest millisecond.
    /// - Parameters:
    ///   - date: the date.
    ///   - milliseconds: whether to write three fraction digits.
    public static func iso8601(_ date: Date, milliseconds: Bool = false) -> String {
        let fields = fields(of: date)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        bytes.appendCalendarDate(fields, separator: UInt8(ascii: "-"))
        bytes.append(UInt8(ascii: "T"))
        bytes.appendClock(fields, separator: UInt8(ascii: ":"))
        if milliseconds {
            bytes.append(UInt8(ascii: "."))
            bytes.appendDigits(fields.millisecond, width: 3)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses ISO 8601 date-time text: `2026-11-29T23:42:00Z`, `2026-11-29T23:42:00.5Z`.
    ///
    /// The form is RFC 3339's `date-time`: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1 to 9
    /// digits, then `Z` or an offset `±HH:MM` (`+00:00` is UTC; other offsets are applied).
    /// `T` and `Z` must be upper case. Out-of-range fields (month 13, 30 February, hour 24,
    /// second 60), missing or extra characters give `nil`.
    /// - Parameter text: the text.
    /// - Returns: the date, or `nil` when the text is not exactly that form.
    public static func parseISO8601(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
              let day = scanner.digits(2), scanner.take("T"),
              let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2), scanner.take(":"),
              let second = scanner.digits(2) else { return nil }
        var fraction = 0.0
        if scanner.take(".") {
            var numerator = 0, denominator = 1
            while let digit = scanner.digit() {
                guard denominator < 1_000_000_000 else { return nil }  // at most 9 digits
                numerator = numerator * 10 + digit
                denominator *= 10
            }
            guard denominator > 1 else { return nil }
            fraction = Double(numerator) / Double(denominator)
        }
        var offsetSeconds = 0
        if !scanner.take("Z") {
            let sign: Int
            if scanner.take("+") { sign = 1 } else if scanner.take("-") { sign = -1 } else { return nil }
            guard let offsetHours = scanner.digits(2), scanner.take(":"), let offsetMinutes = scanner.digits(2),
                  offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.isAtEnd,
              let local = date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction)
        else { return nil }
        return local.addingTimeInterval(TimeInterval(-offsetSeconds))
    }

    // MARK: Compact stamp (snapshot ids)

    /// The compact UTC stamp of snapshot ids: `20261129T234200Z` (`yyyyMMdd'T'HHmmss'Z'`).
    /// - Parameter date: the date (rounded to the nearest millisecond, then to the second below).
    public static func compactStamp(_ date: Date) -> String {
        let fields = fields(of: date)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        bytes.appendCalendarDate(fields, separator: nil)
        bytes.append(UInt8(ascii: "T"))
        bytes.appendClock(fields, separator: nil)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses a compact stamp, `20261129T234200Z`: exactly 16 characters, every field in range.
    /// - Parameter text: the stamp.
    /// - Returns: the date, or `nil` when the text is not a valid stamp.
    public static func parseCompactStamp(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        guard let year = scanner.digits(4), let month = scanner.digits(2), let day = scanner.digits(2), scanner.take("T"),
              let hour = scanner.digits(2), let minute = scanner.digits(2), let second = scanner.digits(2),
              scanner.take("Z"), scanner.isAtEnd else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    // MARK: Listing stamp

    /// A date to the minute for listings: `2027-01-15 08:00 UTC` (`yyyy-MM-dd HH:mm 'UTC'`).
    /// - Parameter date: the date (rounded to the nearest millisecond, then to the minute below).
    public static func minuteStamp(_ date: Date) -> String {
        let fields = fields(of: date)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        bytes.appendCalendarDate(fields, separator: UInt8(ascii: "-"))
        bytes.append(UInt8(ascii: " "))
        bytes.appendDigits(fields.hour, width: 2)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendDigits(fields.minute, width: 2)
        bytes.append(contentsOf: " UTC".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Appends a non-negative number in decimal, left-padded with zeros to `width` digits.
    mutating func appendDigits(_ value: Int, width: Int) {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if digits.count < width { append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
        append(contentsOf: digits.reversed())
    }

    /// Appends `yyyy-MM-dd` (or `yyyyMMdd` without a separator).
    mutating func appendCalendarDate(_ fields: UTCTime.Fields, separator: UInt8?) {
        appendNumbers([(fields.year, 4), (fields.month, 2), (fields.day, 2)], separator: separator)
    }

    /// Appends `HH:mm:ss` (or `HHmmss` without a separator).
    mutating func appendClock(_ fields: UTCTime.Fields, separator: UInt8?) {
        appendNumbers([(fields.hour, 2), (fields.minute, 2), (fields.second, 2)], separator: separator)
    }

    /// Appends zero-padded numbers (value, width), with `separator` between them when given.
    private mutating func appendNumbers(_ numbers: [(Int, Int)], separator: UInt8?) {
        for (index, (value, width)) in numbers.enumerated() {
            if index > 0, let separator { append(separator) }
            appendDigits(value, width: width)
        }
    }
}

/// A cursor over the UTF-8 bytes of a date text, for the strict parsers of ``UTCTime``.
struct DateScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { index == bytes.count }

    /// Consumes one ASCII digit.
    mutating func digit() -> Int? {
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    /// Consumes exactly `count` ASCII digits (no sign, no spaces) as a number.
    mutating func digits(_ count: Int) -> Int? {
        let start = index
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { index = start; return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// Consumes `literal` if the text continues with it, byte for byte.
    mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }

    /// Consumes one of `names` (ASCII, compared without case) and returns its index.
    mutating func name(in names: [String]) -> Int? {
        for (position, name) in names.enumerated() {
            let expected = Array(name.utf8)
            guard bytes.count - index >= expected.count else { continue }
            if expected.indices.allSatisfy({ bytes[index + $0] | 0x20 == expected[$0] | 0x20 }) {
                index += expected.count
                return position
            }
        }
        return nil
    }
}
