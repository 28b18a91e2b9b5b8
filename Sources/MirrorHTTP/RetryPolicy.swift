import Foundation
import MirrorCore

/// When to try a request again: server errors (500, 502, 503, 504), 429, timeouts and
/// connection failures, with exponential backoff or the server's `Retry-After`.
///
/// A pure value: ``delay(afterAttempt:status:error:retryAfter:now:)`` decides, the caller sleeps.
/// Trust, identity and limit failures are never retried.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt (0 disables retrying).
    public var maxRetries: Int
    /// The first backoff delay; each retry doubles it.
    public var baseDelay: TimeInterval
    /// The longest backoff delay.
    public var maxDelay: TimeInterval
    /// A `Retry-After` longer than this is not waited for: the response is returned as it is.
    public var maxRetryAfter: TimeInterval

    public init(maxRetries: Int = 2, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 10, maxRetryAfter: TimeInterval = 60) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    public static let none = RetryPolicy(maxRetries: 0)

    static let retryableStatuses: Set<Int> = [429, 500, 502, 503, 504]

    /// Seconds to wait before the next attempt, or nil to stop.
    ///
    /// - Parameters:
    ///   - attempt: attempts made so far (1 after the first).
    ///   - status: the response status, when there was a response.
    ///   - error: the failure, when there was no response.
    ///   - retryAfter: the response's `Retry-After` header.
    public func delay(afterAttempt attempt: Int, status: Int?, error: HTTPError?, retryAfter: String?, now: Date = Date()) -> TimeInterval? {
        guard attempt <= maxRetries else { return nil }
        if let status {
            guard Self.retryableStatuses.contains(status) else { return nil }
            if let retryAfter, let wait = Self.parseRetryAfter(retryAfter, now: now) {
                return wait <= maxRetryAfter ? wait : nil
            }
        } else if let error {
            switch error {
            case .timeout, .network, .truncated: break
            default: return nil
            }
        } else {
            return nil
        }
        return min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
    }

    /// `Retry-After` as seconds from `now`: delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
    public static func parseRetryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return TimeInterval(seconds) }
        guard let date = HTTPDate.parse(trimmed, now: now) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// HTTP-date parsing and formatting (RFC 9110 §5.6.7): IMF-fixdate, plus the obsolete RFC 850
/// and asctime forms, for `Retry-After` and cookie `Expires`. A thin face over ``UTCTime``.
public enum HTTPDate {
    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`, also with a four-digit year as cookies use) or asctime
    /// (`Sun Nov  6 08:49:37 1994`) date.
    ///
    /// See ``UTCTime/parseHTTPDate(_:now:)`` for the exact rules, including two-digit years.
    /// - Parameters:
    ///   - text: the header value, without surrounding spaces.
    ///   - now: the reference for two-digit years.
    /// - Returns: the date, or `nil` when the text is none of the forms.
    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        UTCTime.parseHTTPDate(text, now: now)
    }

    /// Formats a date as IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    /// - Parameter date: the date.
    public static func format(_ date: Date) -> String {
        UTCTime.httpDate(date)
    }
}
