import Foundation
import MirrorCore

/// The date forms of WARC 1.1 and of CDXJ indexes.
///
/// `WARC-Date` is W3C-ISO8601 in UTC; WARC 1.1 allows a fraction of a second, and this tool
/// writes microseconds (`2026-11-29T19:32:02.123456Z`), as warcio does for 1.1. Indexes and
/// replay URLs use the 14-digit timestamp of the same moment (`20261129193202`).
public enum WARCDate {
    /// `yyyy-MM-ddTHH:mm:ss.ffffffZ`.
    public static func string(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let fields = UTCTime.fields(of: Date(timeIntervalSince1970: seconds))
        let micros = min(max(Int(((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded(.down)), 0), 999_999)
        return String(unsafeUninitializedCapacity: 27) { out in
            var at = 0
            func put(_ value: Int, _ width: Int) {
                var rest = value
                for index in stride(from: width - 1, through: 0, by: -1) {
                    out[at + index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += width
            }
            func mark(_ byte: Character) {
                out[at] = byte.asciiValue!
                at += 1
            }
            put(fields.year, 4); mark("-"); put(fields.month, 2); mark("-"); put(fields.day, 2); mark("T")
            put(fields.hour, 2); mark(":"); put(fields.minute, 2); mark(":"); put(fields.second, 2); mark(".")
            put(micros, 6); mark("Z")
            return at
        }
    }

    /// The 14-digit timestamp (`yyyyMMddHHmmss`) of a date.
    public static func timestamp(_ date: Date) -> String {
        let seconds = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let stamp = UTCTime.compactStamp(seconds)  // yyyyMMddTHHmmssZ
        return stamp.replacingOccurrences(of: "T", with: "").replacingOccurrences(of: "Z", with: "")
    }

    /// The 14-digit timestamp of a `WARC-Date` value (its first 19 characters), or nil.
    public static func timestamp(ofWARCDate text: String) -> String? {
        let digits = text.utf8.prefix(19).filter { (0x30...0x39).contains($0) }
        guard digits.count == 14 else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }

    /// Parses a `WARC-Date` value (with or without a fraction).
    public static func parse(_ text: String) -> Date? { UTCTime.parseISO8601(text) }

    /// Parses a timestamp of 4 to 14 digits; missing fields count from the start of the period
    /// (`2026` is 2026-01-01T00:00:00Z), as replay tools read partial timestamps.
    public static func parseTimestamp(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard (4...14).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var padded = bytes
        let defaults = Array("00000101000000".utf8)
        while padded.count < 14 { padded.append(defaults[padded.count]) }
        func number(_ range: Range<Int>) -> Int { padded[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        return UTCTime.date(year: number(0..<4), month: number(4..<6), day: number(6..<8),
                            hour: number(8..<10), minute: number(10..<12), second: number(12..<14))
    }
}
