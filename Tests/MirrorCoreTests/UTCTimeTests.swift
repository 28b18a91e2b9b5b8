import Foundation
import Testing
@testable import MirrorCore

/// Foundation's own formatters, as the reference the pure-Swift code must match.
private enum Reference {
    static func iso(milliseconds: Bool) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = milliseconds ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter
    }

    static func pattern(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    /// Seconds since 1970 worth checking: the epoch, leap days, ends of months and years,
    /// century edges, negative fractions, and 2,000 pseudo-random instants 1970...2100.
    static let instants: [Double] = {
        var fixed: [Double] = [0, -0.5, -0.0004, -1.9996, 0.9994, 0.9996, 0.0015, -86_400.25, 1e9 + 0.1234, 1_700_000_000.1235]
        for (year, month, day) in [(1972, 2, 29), (2000, 2, 29), (2024, 2, 29), (2100, 2, 28), (2100, 3, 1), (1999, 12, 31),
                                   (2000, 1, 1), (2026, 4, 30), (2026, 11, 29), (1970, 1, 1), (2099, 12, 31), (1969, 12, 31),
                                   (1900, 3, 1), (1601, 1, 1), (9999, 12, 31)] {
            let days = Double(UTCTime.days(fromCivilYear: year, month: month, day: day))
            fixed += [days * 86_400, days * 86_400 + 86_399, days * 86_400 + 86_399.999, days * 86_400 + 43_200.5]
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            fixed.append((unit * 4_102_444_800 * 1000).rounded(.down) / 1000 + (state & 1 == 0 ? 0 : 0.0005))
        }
        return fixed
    }()
}

@Suite struct UTCTimeTests {
    // MARK: Against Foundation

    @Test func everyFormatMatchesFoundationsFormatters() {
        let iso = Reference.iso(milliseconds: false), isoMilliseconds = Reference.iso(milliseconds: true)
        let compact = Reference.pattern("yyyyMMdd'T'HHmmss'Z'"), minute = Reference.pattern("yyyy-MM-dd HH:mm 'UTC'")
        let http = Reference.pattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'")
        var mismatches: [String] = []
        for seconds in Reference.instants {
            let date = Date(timeIntervalSince1970: seconds)
            let pairs = [(UTCTime.iso8601(date), iso.string(from: date)),
                         (UTCTime.iso8601(date, milliseconds: true), isoMilliseconds.string(from: date)),
                         (UTCTime.compactStamp(date), compact.string(from: date)),
                         (UTCTime.minuteStamp(date), minute.string(from: date)),
                         (UTCTime.httpDate(date), http.string(from: date))]
            for (ours, theirs) in pairs where ours != theirs { mismatches.append("\(seconds): \(ours) != \(theirs)") }
        }
        #expect(Reference.instants.count > 2000)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func parsersAgreeWithFoundationOnWhatTheyWrite() {
        let iso = Reference.iso(milliseconds: false), isoMilliseconds = Reference.iso(milliseconds: true)
        let compact = Reference.pattern("yyyyMMdd'T'HHmmss'Z'")
        for seconds in Reference.instants {
            let date = Date(timeIntervalSince1970: seconds)
            let plain = iso.string(from: date), fractional = isoMilliseconds.string(from: date)
            #expect(UTCTime.parseISO8601(plain) == iso.date(from: plain), "\(plain)")
            let ours = UTCTime.parseISO8601(fractional)?.timeIntervalSince1970 ?? .nan
            let theirs = isoMilliseconds.date(from: fractional)?.timeIntervalSince1970 ?? 0
            #expect(abs(ours - theirs) < 1e-6, "\(fractional)")
            let stamp = compact.string(from: date)
            #expect(UTCTime.parseCompactStamp(stamp) == compact.date(from: stamp), "\(stamp)")
            #expect(UTCTime.parseHTTPDate(UTCTime.httpDate(date)) == iso.date(from: plain), "\(plain)")
        }
    }

    // MARK: Round trips

    @Test(arguments: [
        ("2026-11-29T23:42:00Z", "2026-11-29T23:42:00.000Z", "20261129T234200Z", "2026-11-29 23:42 UTC", "Sun, 29 Nov 2026 23:42:00 GMT"),
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z", "19700101T000000Z", "1970-01-01 00:00 UTC", "Thu, 01 Jan 1970 00:00:00 GMT"),
        ("2000-02-29T12:00:00Z", "2000-02-29T12:00:00.000Z", "20000229T120000Z", "2000-02-29 12:00 UTC", "Tue, 29 Feb 2000 12:00:00 GMT"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59.000Z", "19691231T235959Z", "1969-12-31 23:59 UTC", "Wed, 31 Dec 1969 23:59:59 GMT"),
        ("2100-12-31T23:59:59Z", "2100-12-31T23:59:59.000Z", "21001231T235959Z", "2100-12-31 23:59 UTC", "Fri, 31 Dec 2100 23:59:59 GMT"),
    ])
    func formatsRoundTrip(iso: String, milliseconds: String, compact: String, minute: String, http: String) throws {
        let date = try #require(UTCTime.parseISO8601(iso))
        #expect(UTCTime.iso8601(date) == iso)
        #expect(UTCTime.iso8601(date, milliseconds: true) == milliseconds)
        #expect(UTCTime.parseISO8601(milliseconds) == date)
        #expect(UTCTime.compactStamp(date) == compact)
        #expect(UTCTime.parseCompactStamp(compact) == date)
        #expect(UTCTime.minuteStamp(date) == minute)
        #expect(UTCTime.httpDate(date) == http)
        #expect(UTCTime.parseHTTPDate(http) == date)
    }

    @Test func millisecondsRoundLikeFoundation() {
        #expect(UTCTime.iso8601(Date(timeIntervalSince1970: 1_795_995_720.5), milliseconds: true) == "2026-11-29T23:42:00.500Z")
        #expect(UTCTime.iso8601(Date(timeIntervalSince1970: 0.9996)) == "1970-01-01T00:00:01Z")
        #expect(UTCTime.iso8601(Date(timeIntervalSince1970: -0.5), milliseconds: true) == "1969-12-31T23:59:59.500Z")
        #expect(UTCTime.parseISO8601("2026-11-29T23:42:00.5Z")?.timeIntervalSince1970 == 1_795_995_720.5)
        #expect(UTCTime.parseISO8601("2026-11-29T23:42:00.123456789Z").map { abs($0.timeIntervalSince1970 - 1_795_995_720.123456789) < 1e-6 } == true)
    }

    @Test func dayArithmeticIsItsOwnInverseOverFiveCenturies() {
        var mismatches = 0
        for days in stride(from: Int64(-150_000), through: 100_000, by: 1) {
            let (year, month, day) = UTCTime.civil(fromDays: days)
            if UTCTime.days(fromCivilYear: year, month: month, day: day) != days || day > UTCTime.daysInMonth(month, year: year) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(UTCTime.civil(fromDays: 0) == (1970, 1, 1))
        #expect(UTCTime.civil(fromDays: 11_016) == (2000, 2, 29))
        #expect(UTCTime.fields(of: Date(timeIntervalSince1970: 0)).weekday == 4)
    }

    @Test func offsetsAreAppliedAndPlusZeroIsUTC() {
        #expect(UTCTime.parseISO8601("2026-11-29T23:42:00+00:00")?.timeIntervalSince1970 == 1_795_995_720)
        #expect(UTCTime.parseISO8601("2026-11-29T23:42:00+01:00")?.timeIntervalSince1970 == 1_795_992_120)
        #expect(UTCTime.parseISO8601("2026-11-29T23:42:00-02:30")?.timeIntervalSince1970 == 1_796_004_720)
    }

    // MARK: Rejections

    @Test(arguments: [
        "", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-32T00:00:00Z", "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T23:60:00Z",
        "2026-11-29T23:42:60Z", "2026-11-29T23:42:00Zjunk", " 2026-11-29T23:42:00Z", "2026-11-29T23:42:00",
        "2026-11-29T23:42Z", "2026-11-29 23:42:00Z", "2026-11-29t23:42:00z", "26-11-29T23:42:00Z",
        "2026-1-29T23:42:00Z", "2026-11-29T23:42:00.Z", "2026-11-29T23:42:00.1234567890Z", "2026-11-29T23:42:00+0000",
        "2026-11-29T23:42:00+24:00", "2026-11-29T23:42:00+01:60", "0000-01-01T00:00:00Z", "2026-11-29T23:42:0aZ",
        "20261129T234200Z", "２026-11-29T23:42:00Z",
    ])
    func isoParserRejects(text: String) {
        #expect(UTCTime.parseISO8601(text) == nil)
    }

    @Test(arguments: [
        "", "20261129T234200", "20261129T234200Zx", "20261329T234200Z", "20260230T000000Z", "20261132T000000Z",
        "20261129T244200Z", "20261129T236000Z", "20261129T234260Z", "20261129 234200Z", "2026-11-29T23:42:00Z",
        "2026112T2342000Z", "+2026129T234200Z",
    ])
    func compactParserRejects(text: String) {
        #expect(UTCTime.parseCompactStamp(text) == nil)
    }

    // MARK: HTTP-date

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),
        ("Sun Nov 16 08:49:37 1994", 784_975_777.0),
        ("sun, 06 nov 1994 08:49:37 gmt", 784_111_777.0),
        ("Wed, 21-Oct-2015 07:28:00 GMT", 1_445_412_480.0),
        ("Wednesday, 21-Oct-15 07:28:00 GMT", 1_445_412_480.0),
        ("Mon, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),  // wrong day name, still a date
        ("Tue, 29 Feb 2000 00:00:00 GMT", 951_782_400.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
        ("Wed, 31 Dec 1969 23:59:59 GMT", -1.0),
        ("Sat, 31 Dec 2016 23:59:60 GMT", 1_483_228_800.0),  // leap second: the next second
    ])
    func parsesHTTPDates(text: String, epoch: Double) {
        let now = Date(timeIntervalSince1970: 1_795_995_720)  // 2026
        #expect(UTCTime.parseHTTPDate(text, now: now)?.timeIntervalSince1970 == epoch)
    }

    @Test func twoDigitYearsFollowRFC9110() {
        let in2026 = Date(timeIntervalSince1970: 1_795_995_720)
        #expect(UTCTime.year(fromTwoDigits: 94, now: in2026) == 1994)
        #expect(UTCTime.year(fromTwoDigits: 76, now: in2026) == 2076)
        #expect(UTCTime.year(fromTwoDigits: 77, now: in2026) == 1977)
        #expect(UTCTime.year(fromTwoDigits: 0, now: in2026) == 2000)
        #expect(UTCTime.year(fromTwoDigits: 26, now: in2026) == 2026)
        let in2080 = Date(timeIntervalSince1970: 3_502_000_000)
        #expect(UTCTime.year(fromTwoDigits: 94, now: in2080) == 2094)
        #expect(UTCTime.year(fromTwoDigits: 31, now: in2080) == 2031)
        #expect(UTCTime.parseHTTPDate("Thursday, 01-Jan-70 00:00:00 GMT", now: in2026) == UTCTime.date(year: 2070, month: 1, day: 1, hour: 0, minute: 0, second: 0))
    }

    @Test(arguments: [
        "", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 +0000", "Sun, 06 Nov 1994 08:49:37 GMT junk",
        " Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sun, 30 Feb 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:49:37 GMT",
        "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sunday, 06 Nov 1994 08:49:37 GMT", "Sux, 06 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37", "Sunday, 06-Nov-994 08:49:37 GMT", "Sunday, 06/Nov/94 08:49:37 GMT",
        "Sunday, 31-Apr-94 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 94", "Sun Nov 06 08:49:37",
        "Sunday Nov  6 08:49:37 1994", "Sun Nov  6 08:49:37 1994 ", "Sun Feb 30 08:49:37 1994", "1994-11-06T08:49:37Z",
    ])
    func httpDateParserRejects(text: String) {
        #expect(UTCTime.parseHTTPDate(text) == nil)
    }

    @Test func fieldsClampAtTheEndsOfTheCalendar() {
        #expect(UTCTime.iso8601(Date(timeIntervalSince1970: 1e15)) == "9999-12-31T23:59:59Z")
        #expect(UTCTime.iso8601(Date(timeIntervalSince1970: -1e15)) == "0001-01-01T00:00:00Z")
        #expect(UTCTime.date(year: 2026, month: 2, day: 29, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime.date(year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0, fraction: 1) == nil)
    }
}
