import Foundation

/// Turns SIGINT and SIGTERM into task cancellation, so that a long job stops cleanly: in-flight
/// transfers are cancelled, nothing is published, and the previous snapshot stays current.
/// Uses the process-wide ``SignalForwarder`` (dispatch signal sources cannot be re-created on
/// Linux once cancelled).
enum Interruption {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let forwarder = SignalForwarder { _ in task.cancel() }
        defer { forwarder.cancel() }
        return try await task.value
    }
}
