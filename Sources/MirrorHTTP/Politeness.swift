import Foundation

/// How politely a client treats each host: pacing, a total byte rate, and how it backs off
/// when a host sheds load (429 Too Many Requests, 503 Service Unavailable).
///
/// Pacing and the byte rate are off by default; backing off is always on in a
/// ``HostThrottle``, because a server that sheds load should end with a complete mirror, not
/// holes.
public struct Politeness: Sendable, Equatable {
    /// Seconds between the starts of two requests to one host (`--wait`).
    public var wait: TimeInterval = 0
    /// Vary each wait between 0.5 and 1.5 times ``wait`` (`--random-wait`, as wget does).
    public var randomWait = false
    /// Requests per second to one host at most (`--host-rate`); nil: no limit.
    public var hostRequestsPerSecond: Double?
    /// Body bytes per second in all, over every host (`--limit-rate`); nil: no limit.
    public var bytesPerSecond: Int64?
    /// Requests in flight to one host at most, before any back-off (the engine's per-host limit).
    public var maximumConcurrency = 32
    /// How often one URL is tried again after 429/503 before the response is kept as it is.
    public var maximumThrottledRetries = 10
    /// The first back-off when the server gives no `Retry-After`; doubled on each further
    /// 429/503 in a row, up to ``maximumBackoff``.
    public var baseBackoff: TimeInterval = 1
    public var maximumBackoff: TimeInterval = 60
    /// A `Retry-After` longer than this is not waited for: the response is kept (and reported).
    public var maximumRetryAfter: TimeInterval = 300

    public init() {}

    /// The statuses that mean "this host sheds load".
    public static let sheddingStatuses: Set<Int> = [429, 503]
}
