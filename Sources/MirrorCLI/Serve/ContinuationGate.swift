import Foundation

/// Resumes one continuation once, from whichever event comes first.
final class ContinuationGate: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var cleanup: [() -> Void] = []
    private var opened = false

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    func onOpen(_ action: @escaping () -> Void) {
        lock.lock()
        cleanup.append(action)
        lock.unlock()
    }

    func open() {
        lock.lock()
        guard !opened else { lock.unlock(); return }
        opened = true
        let pending = continuation
        continuation = nil
        let actions = cleanup
        cleanup = []
        lock.unlock()
        for action in actions { action() }
        pending?.resume()
    }
}
