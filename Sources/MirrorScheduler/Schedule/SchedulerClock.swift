import Foundation

/// The time source of the scheduler loop; tests inject one that jumps instead of waiting.
public protocol SchedulerClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Returns at `deadline` (or at once when it has passed).
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    func sleep(until deadline: Date) async throws
}

/// The wall clock, sleeping with `Task.sleep`.
public struct SystemSchedulerClock: SchedulerClock {
    /// Creates the wall clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// Sleeps until `deadline`, at most an hour at a time (the loop then looks again).
    /// - Throws: `CancellationError` when cancelled.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        // Sleep in slices of at most an hour so that a wall-clock jump (suspend, NTP) is noticed.
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 3600) * 1_000_000_000))
    }
}
