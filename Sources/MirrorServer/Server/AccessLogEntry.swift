import Foundation

/// One served request, for the access log.
public struct AccessLogEntry: Sendable {
    /// The client's address.
    public var remoteAddress: String
    /// The verified client certificate's subject (RFC 2253) with mutual TLS, else `nil`.
    public var clientSubject: String?
    /// When the response was queued.
    public var time: Date
    /// The request line, with any `token=` query value redacted; `-` when unparsable.
    public var requestLine: String
    /// The status sent.
    public var status: Int
    /// Body bytes sent (planned).
    public var bytes: Int64

    /// The entry in Common Log Format: `host - user [date] "request" status bytes`, where
    /// `user` is the client subject with spaces and quotes percent-encoded.
    public var commonLogFormat: String {
        let user = clientSubject.map { subject in
            subject.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: " ", with: "%20")
                .replacingOccurrences(of: "\"", with: "%22")
        } ?? "-"
        let request = requestLine.replacingOccurrences(of: "\"", with: "%22")
        return "\(remoteAddress) - \(user) [\(Self.format(time))] \"\(request)\" \(status) \(bytes)"
    }

    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    /// A request line with the value of any `token=` query parameter replaced by `REDACTED`.
    static func redacted(_ line: String) -> String {
        var out = ""
        var rest = Substring(line)
        while let range = rest.range(of: "token=") {
            out += rest[..<range.upperBound] + "REDACTED"
            rest = rest[range.upperBound...]
            rest = rest[(rest.firstIndex { $0 == "&" || $0 == " " } ?? rest.endIndex)...]
        }
        return out + rest
    }
}
