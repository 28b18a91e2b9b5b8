import Foundation

/// Actions that must run when the test process exits, even for fixtures that live in `static`
/// properties and are therefore never deinitialised: killing nginx, removing temporary trees.
///
/// The first registration installs one `atexit` handler. Each registration returns a token so
/// that a fixture stopped in the normal way can take its action back out.
enum ExitCleanup {
    private static let actions = LockedBox<[Int: @Sendable () -> Void]>([:])
    private static let nextToken = LockedBox(0)
    private static let installed: Bool = {
        atexit { ExitCleanup.runAll() }
        return true
    }()

    /// Registers `action` to run at process exit and returns a token for ``unregister(_:)``.
    static func register(_ action: @escaping @Sendable () -> Void) -> Int {
        _ = installed
        let token = nextToken.withLock { value -> Int in
            value += 1
            return value
        }
        actions.withLock { $0[token] = action }
        return token
    }

    /// Removes the action registered under `token`; unknown tokens are ignored.
    static func unregister(_ token: Int) {
        _ = actions.withLock { $0.removeValue(forKey: token) }
    }

    private static func runAll() {
        let pending = actions.withLock { current -> [@Sendable () -> Void] in
            defer { current.removeAll() }
            return current.sorted { $0.key > $1.key }.map(\.value)
        }
        for action in pending { action() }
    }
}
