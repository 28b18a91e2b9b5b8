import Foundation

extension UTCTime {
    static let shortDayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longDayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An HTTP-date as IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
    /// - Parameter date: the date (rounded to the nearest millisecond, then to the second below).
    public static func httpDate(_ date: Date) -> String {
        let fields = fields(of: date)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        bytes.append(contentsOf: shortDayNames[fields.weekday].utf8)
        bytes.append(contentsOf: ", ".utf8)
        bytes.appendDigits(fields.day, width: 2)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: monthNames[fields.month - 1].utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.appendDigits(fields.year, width: 4)
        bytes.append(UInt8(ascii: " "))
        bytes.appendClock(fields, separator: UInt8(ascii: ":"))
        bytes.append(contentsOf: " GMT".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses an HTTP-date in any of the three forms of RFC 9110 §5.6.7.
    ///
    /// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
    /// - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`; also the Netscape cookie variant
    ///   with a short day name and/or a four-digit year (`Wed, 21-Oct-2015 07:28:00 GMT`),
    ///   which servers still send in `Set-Cookie` `Expires`.
    /// - asctime: `Sun Nov  6 08:49:37 1994` (a one-digit day is preceded by a second space).
    ///
    /// Day and month names and `GMT` are compared without case. The day name must be a real
    /// one but is not checked against the date (RFC 9110 gives it no meaning, and some senders
    /// get it wrong). A two-digit year follows RFC 9110: it is taken in the century of `now`,
    /// unless that puts it more than 50 years after `now`'s year, in which case it is the
    /// previous century (in 2026, `94` is 1994 and `70` is 2070). Second 60 (a leap second) is
    /// read as the next second. Anything else, including leading or trailing spaces, gives `nil`.
    /// - Parameters:
    ///   - text: the header value.
    ///   - now: the reference for two-digit years.
    /// - Returns: the date, or `nil` when the text is none of the forms or a field is out of range.
    public static func parseHTTPDate(_ text: String, now: Date = Date()) -> Date? {
        var scanner = DateScanner(text)
        let longDay = scanner.name(in: longDayNames)
        let shortDay = longDay == nil ? scanner.name(in: shortDayNames) : nil
        guard longDay != nil || shortDay != nil else { return nil }
        let day: Int, month: Int, year: Int, clock: (hour: Int, minute: Int, second: Int)
        if scanner.take(",") {
            guard scanner.take(" "), let dayNumber = scanner.digits(2) else { return nil }
            if shortDay != nil, scanner.take(" ") {
                // IMF-fixdate
                guard let monthIndex = scanner.name(in: monthNames), scanner.take(" "),
                      let fullYear = scanner.digits(4), scanner.take(" "), let time = scanner.clock(),
                      scanner.take(" "), scanner.name(in: ["GMT"]) != nil else { return nil }
                (day, month, year, clock) = (dayNumber, monthIndex + 1, fullYear, time)
            } else {
                // RFC 850 (or the cookie variant)
                guard scanner.take("-"), let monthIndex = scanner.name(in: monthNames), scanner.take("-") else { return nil }
                if let fullYear = scanner.digits(4) {
                    year = fullYear
                } else if let shortYear = scanner.digits(2) {
                    year = Self.year(fromTwoDigits: shortYear, now: now)
                } else {
                    return nil
                }
                guard scanner.take(" "), let time = scanner.clock(), scanner.take(" "), scanner.name(in: ["GMT"]) != nil
                else { return nil }
                (day, month, clock) = (dayNumber, monthIndex + 1, time)
            }
        } else {
            // asctime
            guard shortDay != nil, scanner.take(" "), let monthIndex = scanner.name(in: monthNames), scanner.take(" ")
            else { return nil }
            let dayNumber: Int?
            if scanner.take(" ") { dayNumber = scanner.digits(1) } else { dayNumber = scanner.digits(2) }
            guard let dayNumber, scanner.take(" "), let time = scanner.clock(), scanner.take(" "),
                  let fullYear = scanner.digits(4) else { return nil }
            (day, month, year, clock) = (dayNumber, monthIndex + 1, fullYear, time)
        }
        guard scanner.isAtEnd else { return nil }
        let leap = clock.second == 60 ? 1.0 : 0
        guard let date = date(year: year, month: month, day: day, hour: clock.hour, minute: clock.minute,
                              second: clock.second - Int(leap)) else { return nil }
        return date.addingTimeInterval(leap)
    }

    /// A two-digit year read as RFC 9110 §5.6.7 asks: the most recent year with those digits
    /// that is not more than 50 years after `now`.
    static func year(fromTwoDigits digits: Int, now: Date) -> Int {
        let current = fields(of: now).year
        let candidate = current - current % 100 + digits
        return candidate > current + 50 ? candidate - 100 : candidate
    }
}

extension DateScanner {
    /// Consumes `HH:MM:SS` with hour 0...23, minute 0...59 and second 0...60.
    mutating func clock() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = digits(2), take(":"), let minute = digits(2), take(":"), let second = digits(2),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        return (hour, minute, second)
    }
}
