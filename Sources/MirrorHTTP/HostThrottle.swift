import MirrorCore
import Foundation

/// The I/O shell around one ``HostThrottleState`` per host, and the global byte rate: the
/// ``HTTPClient`` asks it before every attempt and tells it how each ended.
///
/// Waiting is asynchronous (`Task.sleep`, or a queued continuation until a request of the host
/// finishes or, on a paced host, is sent), so a throttled host holds no thread. Hosts are
/// `host:port`.
public actor HostThrottle {
    public nonisolated let politeness: Politeness
    private var hosts: [String: HostThrottleState] = [:]
    private var crawlDelays: [String: TimeInterval] = [:]
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// The total byte rate (``Politeness/bytesPerSecond``), paid by the engines as bodies arrive.
    public nonisolated let byteRate: ByteRateLimiter?
    /// Shedding responses seen, by host (for the run's report).
    public private(set) var sheddingResponses: [String: Int] = [:]
    private let clock: @Sendable () -> TimeInterval
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - politeness: the configuration.
    ///   - clock: seconds on a monotonic clock (injected for tests).
    ///   - random: numbers in 0..<1 for `--random-wait` (injected for tests).
    public init(politeness: Politeness,
                clock: @escaping @Sendable () -> TimeInterval = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.politeness = politeness
        byteRate = politeness.bytesPerSecond.map { ByteRateLimiter(bytesPerSecond: $0) }
        self.clock = clock
        self.random = random
    }

    /// Sets a host's robots.txt `Crawl-delay` (seconds), which raises its pacing interval.
    public func setCrawlDelay(_ seconds: TimeInterval, host: String, port: Int) {
        let key = Self.key(host, port)
        crawlDelays[key] = seconds
        hosts[key]?.interval = HostThrottleState.interval(politeness, crawlDelay: seconds)
    }

    /// The pacing interval a host has now (for tests and diagnostics).
    public func interval(host: String, port: Int) -> TimeInterval {
        state(Self.key(host, port)).interval
    }

    /// What ``acquire(host:port:)`` gave a request.
    public enum Admission: Sendable, Equatable {
        /// The task was cancelled while it waited; nothing was counted.
        case cancelled
        /// It may start.
        case started
        /// It may start, and its host is paced: the next request of the host waits until this
        /// one is sent (``sent(host:port:ticket:)``) or has ended (``finish(host:port:status:retryAfter:bytes:paced:)``).
        case startedPaced(ticket: UInt64)
    }

    /// Waits until a request to `host:port` may start, and counts it in flight.
    ///
    /// - Returns: whether it may start, and whether it is paced; ``Admission/cancelled`` when
    ///   the task was cancelled while waiting (nothing was counted).
    public func acquire(host: String, port: Int) async -> Admission {
        let key = Self.key(host, port)
        while true {
            if Task.isCancelled { return .cancelled }
            let now = clock()
            var current = state(key)
            // A random number only for --random-wait: each one is a getrandom system call.
            let decision = current.request(now: now, random: current.randomWait ? random() : 0)
            hosts[key] = current
            switch decision {
            case .start:
                return current.awaitingSend ? .startedPaced(ticket: current.sendTicket) : .started
            case .waitUntil(let time):
                if !(await sleep(until: time)) { return .cancelled }
            case .waitForSlot, .waitForSend:
                await withCheckedContinuation { waiters[key, default: []].append($0) }
            }
        }
    }

    /// A paced request (``Admission/startedPaced``) has been sent: its host's next request may
    /// start the interval after now.
    public func sent(host: String, port: Int, ticket: UInt64) {
        let key = Self.key(host, port)
        var current = state(key)
        let released = current.sent(ticket: ticket, now: clock())
        hosts[key] = current
        // Every waiter asks again (those held by the concurrency limit park again): a paced
        // host has a few requests a second, and a waiter woken for the wrong reason must not
        // leave one held for the send behind it.
        if released { resume(key, count: Int.max) }
    }

    /// A request that ``acquire(host:port:)`` let start has ended.
    ///
    /// - Parameters:
    ///   - status: the response status, or nil when there was no response.
    ///   - retryAfter: the response's `Retry-After`, in seconds.
    ///   - bytes: body bytes received (the byte rate was paid while they arrived).
    ///   - paced: for a paced request (``Admission/startedPaced(ticket:)``), its ticket and
    ///     whether it was sent (false: its connection failed first).
    public func finish(host: String, port: Int, status: Int?, retryAfter: TimeInterval?, bytes: Int64,
                       paced: (ticket: UInt64, wasSent: Bool)? = nil) {
        let key = Self.key(host, port)
        var current = state(key)
        let outcome: HostThrottleState.Outcome
        if let status, Politeness.sheddingStatuses.contains(status) {
            outcome = .shedding(retryAfter: retryAfter)
            sheddingResponses[key, default: 0] += 1
        } else {
            outcome = status == nil ? .failure : .success
        }
        let now = clock()
        let free = current.finished(outcome, paced: paced, now: now)
        hosts[key] = current
        resume(key, count: max(1, free))
    }

    /// A request that was let start did not run.
    public func abandon(host: String, port: Int, ticket: UInt64? = nil) {
        let key = Self.key(host, port)
        var current = state(key)
        let free = current.abandoned(ticket: ticket)
        hosts[key] = current
        resume(key, count: max(1, free))
    }

    private func resume(_ key: String, count: Int) {
        guard var queue = waiters[key], !queue.isEmpty else { return }
        let woken = queue.prefix(count)
        queue.removeFirst(woken.count)
        waiters[key] = queue
        for waiter in woken { waiter.resume() }
    }

    private func state(_ key: String) -> HostThrottleState {
        hosts[key] ?? HostThrottleState(politeness: politeness, crawlDelay: crawlDelays[key])
    }

    /// Sleeps until `time` on the throttle's clock; false when cancelled.
    private func sleep(until time: TimeInterval) async -> Bool {
        let seconds = time - clock()
        guard seconds > 0 else { return true }
        do {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            return true
        } catch {
            return false
        }
    }

    static func key(_ host: String, _ port: Int) -> String { "\(HostName.canonical(host) ?? host):\(port)" }
}
