import Foundation

/// The total byte rate of a client (`--limit-rate`): every transfer's body bytes, over every
/// host and engine, are paid for from one budget.
///
/// The engine thread that receives a chunk asks ``delay(for:)`` how long the budget needs, and
/// waits that long before taking the next one. Since every transfer of an engine is received on
/// its one thread, and every engine pays from the same budget, the sum over all transfers keeps
/// to the rate (within the allowance of ``burst`` seconds' worth), not each transfer on its own.
public final class ByteRateLimiter: @unchecked Sendable {
    /// Bytes per second.
    public let rate: Double
    /// Seconds of bytes that may arrive ahead of the rate (small pages then cost no wait).
    public let burst: TimeInterval
    private let lock = NSLock()
    /// When the bytes received so far are paid for, on the monotonic clock.
    private var paidUntil: TimeInterval = 0
    private let clock: @Sendable () -> TimeInterval

    /// - Parameters:
    ///   - bytesPerSecond: the rate, at least 1.
    ///   - burst: the allowance, in seconds of bytes.
    ///   - clock: seconds on a monotonic clock (injected for tests).
    public init(bytesPerSecond: Int64, burst: TimeInterval = 0.25,
                clock: @escaping @Sendable () -> TimeInterval = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        rate = Double(max(1, bytesPerSecond))
        self.burst = burst
        self.clock = clock
    }

    /// Charges `bytes` to the budget.
    ///
    /// - Returns: the seconds the receiver must wait before more bytes may arrive (0: none).
    public func delay(for bytes: Int) -> TimeInterval {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        paidUntil = max(paidUntil, now - burst) + Double(bytes) / rate
        return max(0, paidUntil - now)
    }
}
