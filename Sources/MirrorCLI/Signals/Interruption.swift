import Foundation

import MirrorCrawler

/// Turns SIGINT and SIGTERM into a clean stop of a long job. The first signal halts the run
/// (``MirrorCrawler/RunControl``): no new transfer starts, those in flight get a short grace,
/// and what was fetched is published (a refresh keeps the previous copy of what it did not
/// reach, marked stale). A second signal cancels the task: transfers are cancelled, nothing is
/// published, and the previous snapshot stays current. Uses the process-wide
/// ``SignalForwarder``, the tool's one signal mechanism.
enum Interruption {
    static func run<T: Sendable>(_ body: @escaping @Sendable (RunControl) async throws -> T) async throws -> T {
        let control = RunControl()
        let task = Task { try await body(control) }
        let forwarder = SignalForwarder { _ in
            if control.haltReason == nil {
                control.halt(.interrupted)
            } else {
                task.cancel()
            }
        }
        defer { forwarder.cancel() }
        return try await task.value
    }
}
