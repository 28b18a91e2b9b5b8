import Foundation

/// How often one site is refreshed: every `every` seconds after the last start, plus a random
/// delay of up to `jitter` seconds so that many mirrors do not hit a server at the same moment.
public struct RefreshSchedule: Sendable, Equatable {
    /// Seconds between the starts of consecutive runs (> 0).
    public var every: TimeInterval
    /// The largest random delay added to each run, in seconds (≥ 0).
    public var jitter: TimeInterval
    /// After a failed run, retry sooner than the next slot: `min(base·2^(n−1), every)` after the
    /// n-th consecutive failure finished. `nil` (the default) retries at the next slot.
    public var failureBackoff: TimeInterval?

    /// Creates a schedule. Values are clamped: `every` to at least 1 s, `jitter` and
    /// `failureBackoff` to at least 0.
    /// - Parameters:
    ///   - every: seconds between run starts.
    ///   - jitter: the largest random extra delay.
    ///   - failureBackoff: the first retry delay after a failure, or `nil` for the next slot.
    public init(every: TimeInterval, jitter: TimeInterval = 0, failureBackoff: TimeInterval? = nil) {
        self.every = max(1, every)
        self.jitter = max(0, jitter)
        self.failureBackoff = failureBackoff.map { max(0, $0) }
    }

    /// When the run after one that started at `start` and ended at `finish` is due.
    ///
    /// Slots are `start + k·every` (k ≥ 1); the first slot after `finish` is taken, so a run
    /// that overran its interval is not followed by an immediate one (missed slots are skipped,
    /// as a systemd timer or cron would). `randomUnit` (in 0…1) scales the jitter. After a
    /// failure with ``failureBackoff`` set, the retry is at `finish + min(backoff·2^(n−1), every)`
    /// when that is earlier than the slot.
    /// - Parameters:
    ///   - start: when the finished run started.
    ///   - finish: when it finished.
    ///   - consecutiveFailures: failures in a row including this run (0 after a success).
    ///   - randomUnit: a random number in 0…1 for the jitter.
    public func nextRun(afterStart start: Date, finish: Date, consecutiveFailures: Int, randomUnit: Double) -> Date {
        let elapsed = max(0, finish.timeIntervalSince(start))
        let slots = max(1, (elapsed / every).rounded(.down) + 1)
        var due = start.addingTimeInterval(slots * every + jitter * min(1, max(0, randomUnit)))
        if consecutiveFailures > 0, let base = failureBackoff {
            let exponent = Double(min(consecutiveFailures - 1, 30))
            let retry = finish.addingTimeInterval(min(base * pow(2, exponent), every))
            if retry < due { due = retry }
        }
        return due
    }
}
