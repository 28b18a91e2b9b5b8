import Foundation
import MirrorCore

/// One refresh run, as one line of `<site>/history.jsonl`.
public struct RunRecord: Sendable, Codable, Equatable {
    /// What changed between the previous snapshot and this run's.
    public struct Counts: Sendable, Codable, Equatable {
        /// URLs new in this snapshot.
        public var added: Int
        /// URLs whose content changed.
        public var changed: Int
        /// URLs gone since the previous snapshot.
        public var removed: Int
        /// URLs carried over unchanged (304 or same digest).
        public var unchanged: Int
        /// URLs that failed in this run.
        public var failed: Int

        /// Creates counts (all zero by default).
        public init(added: Int = 0, changed: Int = 0, removed: Int = 0, unchanged: Int = 0, failed: Int = 0) {
            self.added = added
            self.changed = changed
            self.removed = removed
            self.unchanged = unchanged
            self.failed = failed
        }
    }

    /// The site's name.
    public var site: String
    /// When the run started.
    public var startedAt: Date
    /// When it ended.
    public var finishedAt: Date
    /// `finishedAt − startedAt`, in seconds.
    public var durationSeconds: Double
    /// Success, partial (published with failures) or failed (nothing published).
    public var outcome: RunOutcome
    /// The process exit code of the run (0, 10, or a failure's code).
    public var exitCode: Int32
    public var counts: Counts
    /// Body bytes fetched.
    public var bytes: Int64
    /// The failure's one-line summary when the run failed (never a secret).
    public var error: String?
    /// The snapshot the run published, if any.
    public var snapshot: String?

    /// Creates a record; the duration is computed from the two times.
    public init(site: String, startedAt: Date, finishedAt: Date, outcome: RunOutcome, exitCode: Int32,
                counts: Counts = Counts(), bytes: Int64 = 0, error: String? = nil, snapshot: String? = nil) {
        self.site = site
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationSeconds = finishedAt.timeIntervalSince(startedAt)
        self.outcome = outcome
        self.exitCode = exitCode
        self.counts = counts
        self.bytes = bytes
        self.error = error
        self.snapshot = snapshot
    }

    /// One line for logs: `site: success in 12.3 s, +3 ~1 -0 =120 !0, 4.2 MiB, snapshot ID`.
    public var summaryLine: String {
        var line = "\(site): \(outcome.rawValue) (exit \(exitCode)) in " + NumberText.fixed(durationSeconds, fractionDigits: 1) + " s"
        line += ", +\(counts.added) ~\(counts.changed) -\(counts.removed) =\(counts.unchanged) !\(counts.failed)"
        line += ", " + NumberText.byteCount(bytes)
        if let snapshot { line += ", snapshot \(snapshot)" }
        if let error { line += ": \(error)" }
        return line
    }
}
