import Foundation

/// UTC calendar arithmetic and the few fixed date formats mtls-mirror writes and reads, in plain
/// Swift.
///
/// Foundation's `DateFormatter` and `ISO8601DateFormatter` build ICU calendars, time zones and
/// locales on first use, which maps several megabytes of ICU data into the process. Every format
/// here is fixed, English and UTC, so none of that is needed: dates are split into fields with
/// proleptic Gregorian day arithmetic, and parsers check each byte.
///
/// Rounding follows Foundation's formatters, so that output stays byte-identical: a date is first
/// rounded to the nearest millisecond (`floor(t × 1000 + 0.5)`, `t` in seconds since 1970), then
/// split; a format without milliseconds drops them. Years are clamped to 0001...9999.
///
/// HTTP-dates (RFC 9110 §5.6.7) are in `UTCTime+HTTPDate.swift`.
public enum UTCTime {
    /// A point in time split into UTC calendar fields.
    public struct Fields: Sendable, Equatable {
        /// The year, 1...9999.
        public var year: Int
        /// The month, 1...12.
        public var month: Int
        /// The day of the month, 1...31.
        public var day: Int
        /// The hour, 0...23.
        public var hour: Int
        /// The minute, 0...59.
        public var minute: Int
        /// The second, 0...59.
        public var second: Int
        /// The millisecond, 0...999.
        public var millisecond: Int
        /// The day of the week, 0 (Sunday) ... 6 (Saturday).
        public var weekday: Int
    }

    /// Seconds from 1970 to 0001-01-01T00:00:00Z, the earliest time formatted.
    static let earliestSecond: Int64 = -62_135_596_800
    /// Seconds from 1970 to 9999-12-31T23:59:59Z, the latest time formatted.
    static let latestSecond: Int64 = 253_402_300_799

    /// Splits a date into UTC fields, after rounding it to the nearest millisecond.
    ///
    /// Dates before 0001-01-01 or after 9999-12-31T23:59:59.999Z (and non-finite ones) are
    /// clamped to those bounds.
    /// - Parameter date: the date.
    public static func fields(of date: Date) -> Fields {
        let scaled = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        let lowest = Double(earliestSecond) * 1000, highest = Double(latestSecond) * 1000 + 999
        let milliseconds = scaled.isNaN ? 0 : Int64(min(max(scaled, lowest), highest))
        let seconds = floorDivide(milliseconds, 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        return Fields(
            year: year, month: month, day: day,
            hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60,
            millisecond: Int(milliseconds - seconds * 1000),
            weekday: Int((days % 7 + 11) % 7))  // 1970-01-01 was a Thursday (4)
    }

    /// The date of valid UTC fields, or `nil` when a field is out of range.
    ///
    /// Checks year 1...9999, month 1...12, the day against the month's length (leap years
    /// included), hour 0...23, minute and second 0...59. `weekday` is ignored.
    /// - Parameters:
    ///   - year: the year, 1...9999.
    ///   - month: 1...12.
    ///   - day: 1...28, 29, 30 or 31.
    ///   - hour: 0...23.
    ///   - minute: 0...59.
    ///   - second: 0...59.
    ///   - fraction: the fraction of a second, 0 ≤ fraction < 1.
    public static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double = 0) -> Date? {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              fraction >= 0, fraction < 1 else { return nil }
        let days = Self.days(fromCivilYear: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days in a month of the proleptic Gregorian calendar.
    /// - Parameters:
    ///   - month: 1...12.
    ///   - year: the year, for February.
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether a year has a 29 February (every 4th year, except centuries not divisible by 400).
    /// - Parameter year: the year.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    // MARK: Day arithmetic

    /// Days since 1970-01-01 of a civil date. The year is counted from March, so that the leap
    /// day falls at the end of it; 400-year eras (146,097 days) make the rest closed formulas.
    static func days(fromCivilYear year: Int, month: Int, day: Int) -> Int64 {
        let marchYear = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(marchYear, 400)
        let yearOfEra = marchYear - era * 400                                  // 0...399
        let monthFromMarch = Int64((month + 9) % 12)                           // March = 0
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1        // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468                              // 0000-03-01 → 1970-01-01
    }

    /// The civil date of a day count since 1970-01-01: the inverse of ``days(fromCivilYear:month:day:)``.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097                                 // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
