#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP-date (RFC 9110 §5.6.7): formatting as IMF-fixdate, parsing all three formats.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats seconds since 1970 as `Sun, 06 Nov 1994 08:49:37 GMT`.
    /// - Parameter seconds: the time, seconds since 1970 (UTC).
    public static func format(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        bytes.append(ascii: days[Int(parts.tm_wday)])
        bytes.append(contentsOf: ", ".utf8)
        bytes.append(twoDigits: Int(parts.tm_mday))
        bytes.append(0x20)
        bytes.append(ascii: months[Int(parts.tm_mon)])
        bytes.append(0x20)
        bytes.append(decimal: Int64(parts.tm_year) + 1900)
        bytes.append(0x20)
        bytes.append(twoDigits: Int(parts.tm_hour))
        bytes.append(0x3A)
        bytes.append(twoDigits: Int(parts.tm_min))
        bytes.append(0x3A)
        bytes.append(twoDigits: Int(parts.tm_sec))
        bytes.append(contentsOf: " GMT".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses an IMF-fixdate, RFC 850 or asctime date; `nil` when it is none of them.
    /// - Parameter text: the header value.
    public static func parse(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        let day: Substring, month: Substring, year: Substring, clock: Substring
        switch words.count {
        case 6 where words[0].hasSuffix(",") && words[5] == "GMT":
            (day, month, year, clock) = (words[1], words[2], words[3], words[4])
        case 4 where words[0].hasSuffix(",") && words[3] == "GMT":
            let parts = words[1].split(separator: "-")
            guard parts.count == 3 else { return nil }
            (day, month, clock) = (parts[0], parts[1], words[2])
            guard let short = Int(parts[2]), parts[2].count == 2 else { return nil }
            year = Substring(String(short < 70 ? 2000 + short : 1900 + short))
        case 5:
            (month, day, clock, year) = (words[1], words[2], words[3], words[4])
        default:
            return nil
        }
        let time = clock.split(separator: ":")
        guard let monthIndex = months.firstIndex(where: { $0 == month }), time.count == 3,
              let dayNumber = Int(day), let yearNumber = Int(year), year.count == 4,
              let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
              (1...31).contains(dayNumber), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(yearNumber - 1900)
        parts.tm_mon = Int32(monthIndex)
        parts.tm_mday = Int32(dayNumber)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int64(timegm(&parts))
    }
}
