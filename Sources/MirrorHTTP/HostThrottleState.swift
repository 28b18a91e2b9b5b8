import Foundation

/// The politeness state machine of one host: when its next request may start, how many may
/// be in flight, and its back-off after 429/503. A pure value: time and randomness come in as
/// arguments, decisions go out; ``HostThrottle`` is the I/O shell that sleeps and queues.
///
/// Concurrency follows additive increase, multiplicative decrease: each shedding response halves
/// the host's concurrency (what was in flight, down to 1), and every `2 × limit` successes in a
/// row raise it by one, back up to the configured maximum.
public struct HostThrottleState: Sendable, Equatable {
    /// What a request must do before it starts.
    public enum Decision: Sendable, Equatable {
        /// Start now (it is counted in flight).
        case start
        /// Ask again at this time (pacing or back-off).
        case waitUntil(TimeInterval)
        /// Ask again when a request of this host finishes (the concurrency limit is reached).
        case waitForSlot
        /// Ask again when the paced request started last has been sent (``sent(ticket:now:)``)
        /// or has ended: its connection may still be in its handshake, and the interval counts
        /// from the moment it leaves.
        case waitForSend
    }

    /// What a finished request saw.
    public enum Outcome: Sendable, Equatable {
        /// A response that is not shedding load.
        case success
        /// 429/503; `retryAfter` in seconds when the server sent one.
        case shedding(retryAfter: TimeInterval?)
        /// No response (network error, cancelled): neither success nor shedding.
        case failure
    }

    public private(set) var limit: Int
    public let maximum: Int
    public private(set) var inFlight = 0
    /// The earliest start of the next request (pacing).
    public private(set) var nextStart: TimeInterval = 0
    /// A paced request has started and has not been sent yet. A request waits for its
    /// connection (a TCP and TLS handshake, or a free slot in libcurl) between its start and the
    /// moment it leaves; paced from its start alone, the next request, sent at once on the
    /// connection the first one opened, reached the origin sooner than the interval after it,
    /// and nginx's `limit_req` at the same rate refused it.
    public private(set) var awaitingSend = false
    /// Numbers the paced requests: the one ``awaitingSend`` waits for has this ticket, and a
    /// notice about an earlier one (sent, or ended) changes nothing.
    public private(set) var sendTicket: UInt64 = 0
    /// The interval (with its random factor) drawn for the request that ``awaitingSend`` waits for.
    private var pendingInterval: TimeInterval = 0
    /// No request starts before this (back-off).
    public private(set) var backoffUntil: TimeInterval = 0
    /// Shedding responses in a row.
    public private(set) var consecutiveShedding = 0
    private var successesSinceChange = 0
    /// Seconds between request starts (the largest of --wait, 1/--host-rate and Crawl-delay).
    public var interval: TimeInterval
    public var randomWait: Bool
    public let baseBackoff: TimeInterval
    public let maximumBackoff: TimeInterval

    /// - Parameters:
    ///   - politeness: the configuration.
    ///   - crawlDelay: robots.txt's `Crawl-delay` for this host, if any.
    public init(politeness: Politeness, crawlDelay: TimeInterval? = nil) {
        maximum = max(1, politeness.maximumConcurrency)
        limit = maximum
        interval = Self.interval(politeness, crawlDelay: crawlDelay)
        randomWait = politeness.randomWait
        baseBackoff = politeness.baseBackoff
        maximumBackoff = politeness.maximumBackoff
    }

    /// The pacing interval for a configuration and a `Crawl-delay`.
    public static func interval(_ politeness: Politeness, crawlDelay: TimeInterval?) -> TimeInterval {
        max(politeness.wait, politeness.hostRequestsPerSecond.map { $0 > 0 ? 1 / $0 : 0 } ?? 0, crawlDelay ?? 0)
    }

    /// Asks to start a request at `now`.
    ///
    /// - Parameters:
    ///   - now: the current time (seconds on any monotonic clock).
    ///   - random: a number in 0..<1, used for ``randomWait``.
    public mutating func request(now: TimeInterval, random: Double) -> Decision {
        if now < backoffUntil { return .waitUntil(backoffUntil) }
        if inFlight >= limit { return .waitForSlot }
        if awaitingSend { return .waitForSend }
        if now < nextStart { return .waitUntil(nextStart) }
        inFlight += 1
        let factor = randomWait ? 0.5 + random : 1
        nextStart = now + interval * factor
        if interval > 0 {
            awaitingSend = true
            sendTicket &+= 1
            pendingInterval = interval * factor
        }
        return .start
    }

    /// The paced request with `ticket` has been sent, at `now`: the next one starts the
    /// interval after this moment at the earliest.
    ///
    /// - Returns: whether a request that waits may now ask again.
    @discardableResult
    public mutating func sent(ticket: UInt64, now: TimeInterval) -> Bool {
        guard awaitingSend, ticket == sendTicket else { return false }
        awaitingSend = false
        nextStart = max(nextStart, now + pendingInterval)
        return true
    }

    /// A request that ``request(now:random:)`` started has finished.
    ///
    /// - Parameters:
    ///   - outcome: what it saw.
    ///   - paced: for a paced request, its ticket and whether it was sent. Ended before the
    ///     notice of its sending came (or unsent: its connection failed), it no longer holds the
    ///     next request; sent, the interval counts from now at the latest.
    ///   - now: the current time.
    /// - Returns: how many waiting requests may now ask again (slots freed or added).
    @discardableResult
    public mutating func finished(_ outcome: Outcome, paced: (ticket: UInt64, wasSent: Bool)? = nil, now: TimeInterval) -> Int {
        inFlight = max(0, inFlight - 1)
        if let paced, awaitingSend, paced.ticket == sendTicket {
            awaitingSend = false
            if paced.wasSent { nextStart = max(nextStart, now + pendingInterval) }
        }
        switch outcome {
        case .shedding(let retryAfter):
            consecutiveShedding += 1
            let exponential = min(maximumBackoff, baseBackoff * pow(2, Double(consecutiveShedding - 1)))
            backoffUntil = max(backoffUntil, now + (retryAfter ?? exponential))
            // Halve what the host was actually given (not a limit it never reached).
            limit = max(1, min(limit, inFlight + 1) / 2)
            successesSinceChange = 0
        case .success:
            consecutiveShedding = 0
            successesSinceChange += 1
            if limit < maximum, successesSinceChange >= 2 * limit {
                limit += 1
                successesSinceChange = 0
            }
        case .failure:
            break
        }
        return max(0, limit - inFlight)
    }

    /// A request that started will not run after all (cancelled before it was sent); a paced
    /// one gives its `ticket`.
    public mutating func abandoned(ticket: UInt64? = nil) -> Int {
        inFlight = max(0, inFlight - 1)
        if let ticket, ticket == sendTicket { awaitingSend = false }
        return max(0, limit - inFlight)
    }
}
