import Foundation

/// A value guarded by a lock, for the little shared state the fixtures keep (reader threads,
/// process handles, the exit-cleanup list).
///
/// Every access goes through ``withLock(_:)``, so the box is safe to share across threads.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value and returns its result.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    var snapshot: Value { withLock { $0 } }
}

extension LockedBox {
    /// Returns the wrapped value and leaves `nil` in its place, so that only one caller gets it.
    func take<Wrapped>() -> Wrapped? where Value == Wrapped? {
        withLock { value in
            defer { value = nil }
            return value
        }
    }
}
