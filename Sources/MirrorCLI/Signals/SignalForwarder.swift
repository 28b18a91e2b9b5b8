import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Synchronization) && os(Linux)
import Synchronization

/// SIGINT and SIGTERM counts not yet delivered, written by the process's signal handler. The
/// handler runs on whatever thread the kernel picks, so they are lock-free atomics (hence
/// async-signal-safe); each signal is counted, so two that arrive close together are two.
private let pendingInterrupts = Atomic<Int32>(0)
private let pendingTerminations = Atomic<Int32>(0)

private func recordSignal(_ number: Int32) {
    if number == SIGINT { pendingInterrupts.add(1, ordering: .releasing) } else { pendingTerminations.add(1, ordering: .releasing) }
}
private func takePending() -> (interrupts: Int32, terminations: Int32) {
    (pendingInterrupts.exchange(0, ordering: .acquiring), pendingTerminations.exchange(0, ordering: .acquiring))
}
#else
/// See the Linux variant above; `Atomic` needs macOS 15, above this package's deployment
/// target, so Darwin keeps the `sig_atomic_t` pattern.
nonisolated(unsafe) private var pendingInterrupts: Int32 = 0
nonisolated(unsafe) private var pendingTerminations: Int32 = 0

private func recordSignal(_ number: Int32) {
    if number == SIGINT { pendingInterrupts += 1 } else { pendingTerminations += 1 }
}
private func takePending() -> (interrupts: Int32, terminations: Int32) {
    defer { pendingInterrupts = 0; pendingTerminations = 0 }
    return (pendingInterrupts, pendingTerminations)
}
#endif

/// Delivers SIGINT and SIGTERM to a handler, instead of ending the process, until cancelled:
/// the tool's one signal mechanism (``StopSignal``, ``Interruption``, `serve` and `schedule`
/// all listen through it).
///
/// The process gets one real signal handler, installed once, that only counts the signal; a
/// 50 ms timer on a private queue hands each counted signal to every forwarder registered
/// then. Dispatch signal sources were not used: in a process with many threads the signal may
/// land on a thread that does not block it, where `SIG_IGN` discards it; and on Linux a source
/// made after an earlier one for the same signal was cancelled never fires. A signal that
/// arrives while no forwarder is registered ends the process as the default action would
/// (exit 128 + signal). Child processes start with the default actions (a handler does not
/// survive `exec`).
final class SignalForwarder: @unchecked Sendable {
    private let token: Int

    /// Starts forwarding to `handler` (called on a private queue, once per signal).
    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        token = SignalHub.shared.add(handler)
    }

    /// Stops forwarding to this handler. Calling it again does nothing.
    func cancel() {
        SignalHub.shared.remove(token)
    }

    deinit { cancel() }
}

/// The process's signal handler and the forwarders it delivers to.
private final class SignalHub: @unchecked Sendable {
    static let shared = SignalHub()

    private let lock = NSLock()
    private var handlers: [Int: @Sendable (Int32) -> Void] = [:]
    private var nextToken = 0
    private var timer: DispatchSourceTimer?

    func add(_ handler: @escaping @Sendable (Int32) -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if timer == nil { install() }
        nextToken += 1
        handlers[nextToken] = handler
        return nextToken
    }

    func remove(_ token: Int) {
        lock.lock()
        defer { lock.unlock() }
        handlers[token] = nil
    }

    /// Called with the lock held, once per process.
    private func install() {
        _ = takePending()
        signal(SIGINT, recordSignal)
        signal(SIGTERM, recordSignal)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "mtls-mirror.signals"))
        timer.schedule(deadline: .now() + 0.05, repeating: 0.05)
        timer.setEventHandler { [weak self] in
            let (interrupts, terminations) = takePending()
            for _ in 0..<interrupts { self?.deliver(SIGINT) }
            for _ in 0..<terminations { self?.deliver(SIGTERM) }
        }
        timer.resume()
        self.timer = timer
    }

    private func deliver(_ number: Int32) {
        lock.lock()
        let current = handlers.sorted { $0.key < $1.key }.map(\.value)
        lock.unlock()
        guard !current.isEmpty else { _exit(128 + number) }
        for handler in current { handler(number) }
    }
}
