import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One "stop now" event for a long-running command, raised by the first of: SIGINT or SIGTERM,
/// a deadline, or ``trigger()`` (for example from an access-log counter).
///
/// Waiting never blocks a cooperative thread: ``wait()`` suspends on a continuation that a
/// private dispatch queue resumes. Handlers registered with ``onStop(_:)`` run once, on that
/// queue (a crawl task registers its own cancellation). ``disarm()`` stops listening, after
/// which a signal ends the process as by default.
///
/// Signals come through the tool's one mechanism, ``SignalForwarder``.
final class StopSignal: @unchecked Sendable {
    /// What stopped the command.
    enum Reason: Sendable, Equatable {
        case signal(Int32)
        case deadline
        case triggered
    }

    private let lock = NSLock()
    private let queue = DispatchQueue(label: "mtls-mirror.stop-signal")
    private var forwarder: SignalForwarder?
    private var reason: Reason?
    private var waiters: [CheckedContinuation<Reason, Never>] = []
    private var handlers: [@Sendable () -> Void] = []

    /// Starts listening for SIGINT and SIGTERM (they no longer end the process while armed).
    init() {
        forwarder = SignalForwarder { [weak self] number in
            guard let self else { return }
            self.queue.async { self.fire(.signal(number)) }
        }
    }

    deinit { disarm() }

    /// Why it stopped, or `nil` while it has not.
    var stopReason: Reason? { lock.withLock { reason } }

    /// Stops after `seconds` from now, unless something stops it earlier.
    func stop(after seconds: Double) {
        queue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.fire(.deadline) }
    }

    /// Stops now.
    func trigger() {
        queue.async { [weak self] in self?.fire(.triggered) }
    }

    /// Runs `handler` once when it stops (at once, on the queue, if it already has).
    func onStop(_ handler: @escaping @Sendable () -> Void) {
        let already: Bool = lock.withLock {
            if reason != nil { return true }
            handlers.append(handler)
            return false
        }
        if already { queue.async(execute: handler) }
    }

    /// Suspends until it stops, and says why.
    func wait() async -> Reason {
        await withCheckedContinuation { continuation in
            let ready: Reason? = lock.withLock {
                if let reason { return reason }
                waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Stops listening for signals (a signal then ends the process, as by default).
    func disarm() {
        let active: SignalForwarder? = lock.withLock {
            defer { forwarder = nil }
            return forwarder
        }
        active?.cancel()
    }

    private func fire(_ cause: Reason) {
        let (pending, actions): ([CheckedContinuation<Reason, Never>], [@Sendable () -> Void]) = lock.withLock {
            guard reason == nil else { return ([], []) }
            reason = cause
            defer { waiters = []; handlers = [] }
            return (waiters, handlers)
        }
        for action in actions { action() }
        for waiter in pending { waiter.resume(returning: cause) }
    }
}
