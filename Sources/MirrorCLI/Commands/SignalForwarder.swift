import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Delivers SIGINT and SIGTERM to a handler, instead of ending the process, until cancelled.
///
/// On Linux, a dispatch signal source created after an earlier one for the same signal was
/// cancelled never fires (checked with Swift 6.3's libdispatch: the signal is lost). So the
/// sources are made once per process, by a shared hub, and never cancelled; forwarders only
/// add and remove handlers. A signal that arrives while no handler is registered ends the
/// process as the default action would (exit 128 + signal).
final class SignalForwarder {
    private let token: Int

    /// Starts forwarding to `handler` (called on a private queue).
    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        token = SignalHub.shared.add(handler)
    }

    /// Stops forwarding to this handler. Calling it again does nothing.
    func cancel() {
        SignalHub.shared.remove(token)
    }

    deinit { cancel() }
}

/// The process's one set of SIGINT/SIGTERM sources, and the handlers they call.
private final class SignalHub: @unchecked Sendable {
    static let shared = SignalHub()

    private let lock = NSLock()
    private var handlers: [Int: @Sendable (Int32) -> Void] = [:]
    private var nextToken = 0
    private var sources: [any DispatchSourceSignal] = []

    func add(_ handler: @escaping @Sendable (Int32) -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if sources.isEmpty { install() }
        nextToken += 1
        handlers[nextToken] = handler
        return nextToken
    }

    func remove(_ token: Int) {
        lock.lock()
        defer { lock.unlock() }
        handlers[token] = nil
    }

    /// Called with the lock held.
    private func install() {
        let queue = DispatchQueue(label: "mtls-mirror.signals")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
            sources.append(source)
        }
    }

    private func deliver(_ number: Int32) {
        lock.lock()
        let current = Array(handlers.values)
        lock.unlock()
        guard !current.isEmpty else { _exit(128 + number) }
        for handler in current { handler(number) }
    }
}
