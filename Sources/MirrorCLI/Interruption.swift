import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT and SIGTERM into task cancellation, so that a long job stops cleanly: in-flight
/// transfers are cancelled, nothing is published, and the previous snapshot stays current.
enum Interruption {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let queue = DispatchQueue(label: "mtls-mirror.signals")
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { task.cancel() }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        return try await task.value
    }
}
