import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Synchronization) && os(Linux)
import Synchronization

/// The last SIGINT/SIGTERM number, written by ``recordStopSignal(_:)`` and taken by the
/// armed ``StopSignal``'s timer. The handler runs on whatever thread the kernel picks, so the
/// word is atomic (lock-free, hence async-signal-safe): a plain variable was a data race that
/// ThreadSanitizer reported (scripts/sanitizers.sh).
private let pendingStopSignal = Atomic<Int32>(0)

private func storePendingStopSignal(_ number: Int32) { pendingStopSignal.store(number, ordering: .releasing) }
private func takePendingStopSignal() -> Int32 { pendingStopSignal.exchange(0, ordering: .acquiring) }
#else
/// The last SIGINT/SIGTERM number (see the Linux variant above; `Atomic` needs macOS 15,
/// above this package's deployment target, so Darwin keeps the `sig_atomic_t` pattern).
nonisolated(unsafe) private var pendingStopSignal: Int32 = 0

private func storePendingStopSignal(_ number: Int32) { pendingStopSignal = number }
private func takePendingStopSignal() -> Int32 {
    defer { pendingStopSignal = 0 }
    return pendingStopSignal
}
#endif

/// The process's SIGINT/SIGTERM handler while a ``StopSignal`` is armed.
private func recordStopSignal(_ number: Int32) {
    storePendingStopSignal(number)
}

/// One "stop now" event for a long-running command, raised by the first of: SIGINT or SIGTERM,
/// a deadline, or ``trigger()`` (for example from an access-log counter).
///
/// Waiting never blocks a cooperative thread: ``wait()`` suspends on a continuation that a
/// private dispatch queue resumes. Handlers registered with ``onStop(_:)`` run once, on that
/// queue (a crawl task registers its own cancellation). ``disarm()`` restores the default
/// signal actions.
///
/// Signals are caught with a real handler that only records the number, and a 50 ms timer on
/// the queue picks it up. Dispatch signal sources were not used: in a process with many
/// threads the signal may land on a thread that does not block it, and with `SIG_IGN` it is
/// then discarded and the source never fires.
final class StopSignal: @unchecked Sendable {
    /// What stopped the command.
    enum Reason: Sendable, Equatable {
        case signal(Int32)
        case deadline
        case triggered
    }

    private let lock = NSLock()
    private let queue = DispatchQueue(label: "mtls-mirror.stop-signal")
    private var timer: DispatchSourceTimer?
    private var reason: Reason?
    private var waiters: [CheckedContinuation<Reason, Never>] = []
    private var handlers: [@Sendable () -> Void] = []

    /// Starts listening for SIGINT and SIGTERM (their default action is replaced while armed).
    init() {
        _ = takePendingStopSignal()
        signal(SIGINT, recordStopSignal)
        signal(SIGTERM, recordStopSignal)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 0.05, repeating: 0.05)
        timer.setEventHandler { [weak self] in
            let number = takePendingStopSignal()
            guard number != 0 else { return }
            self?.fire(.signal(number))
        }
        timer.resume()
        self.timer = timer
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

    /// Stops listening for signals and restores their default actions.
    func disarm() {
        let active: DispatchSourceTimer? = lock.withLock {
            defer { timer = nil }
            return timer
        }
        guard let active else { return }
        active.cancel()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
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
