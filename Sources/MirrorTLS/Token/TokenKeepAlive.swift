import Foundation

/// Keeps every token key, and through it its PKCS#11 context, for the life of the process.
///
/// A key on a token is torn down by closing its sessions in the module (SoftHSM, OpenSC). The
/// last reference to an identity goes when the HTTP engine's thread ends, which at the end of a
/// command races with `exit` destroying the module's own static state: closing a session then
/// crashed (SIGSEGV inside libsofthsm2 after a complete mirror, now and then; ThreadSanitizer
/// showed the stack). Each command loads its identity once (scheduled refreshes run as child
/// processes), so nothing accumulates: the kernel closes the sessions when the process ends,
/// as it does for a browser's token.
enum TokenKeepAlive {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [AnyObject] = []

    /// Retains `object` until the process exits.
    static func keep(_ object: AnyObject) {
        lock.lock()
        kept.append(object)
        lock.unlock()
    }
}
