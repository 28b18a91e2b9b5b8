import Foundation
import MirrorCore

/// One thread started ahead of the first transfer engine (``CurlMultiEngine``), before libcurl
/// and libxml2 are opened, and parked until the engine takes it.
///
/// glibc's `pthread_create` takes the lock that a `dlopen` holds while it maps and relocates a
/// library. The first engine starts its thread as the run's first request leaves, which is
/// often while libxml2 and the ICU libraries it brings are being opened on libcurl's loading
/// thread (``CurlGlobal/preload(then:)``): in a quarter of the runs measured on a one-page site
/// the first connection waited 0.9–2.6 ms for that load to end (issue #27). A thread made
/// before any `dlopen` starts waits for nothing, and the first engine then starts without
/// creating one. Later engines create their own threads.
///
/// Thread-safe. A reserve nobody takes stays parked, idle, until the process exits.
public final class EngineThreadReserve: @unchecked Sendable {
    /// The process's reserve: `mirror` and `refresh` fill it before libcurl's load starts.
    public static let shared = EngineThreadReserve()

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var started = false
    private var taken = false
    private var job: (@Sendable () -> Void)?

    /// Starts the parked thread, once, with the stack an engine's thread has; later calls do
    /// nothing.
    public func fill() {
        condition.lock()
        defer { condition.unlock() }
        guard !started else { return }
        started = NativeThread.detach(name: Self.threadName, stackSize: CurlMultiEngine.threadStackSize) { [self] in park() }
    }

    /// Hands `body` to the parked thread, which runs it and then ends. False when there is no
    /// parked thread (never filled, or already taken): the caller starts a thread of its own.
    func take(_ body: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard started, !taken else { return false }
        taken = true
        job = body
        condition.signal()
        return true
    }

    private func park() {
        condition.lock()
        while job == nil { condition.wait() }
        let body = job
        job = nil
        condition.unlock()
        body?()
    }

    /// What `top -H` shows for the thread while it waits.
    static let threadName = "mm-reserve"
}
