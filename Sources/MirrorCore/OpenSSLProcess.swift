import COpenSSL

/// Process-wide OpenSSL settings for the executable.
public enum OpenSSLProcess {
    /// Initialises OpenSSL without its exit-time cleanup. Call it first thing in `main`, before
    /// any other OpenSSL or libcurl call (only the first initialisation decides).
    ///
    /// By default OpenSSL registers an `atexit` handler that frees its locks and providers. When
    /// `exit` runs while a thread of the Swift pool is still releasing a TLS or digest object,
    /// that thread then uses a freed lock and the process dies as it ends (SIGSEGV in
    /// `pthread_rwlock_unlock`, seen in CI after a successful `fetch`). The operating system
    /// reclaims the memory anyway.
    /// - Returns: whether OpenSSL accepted the initialisation.
    @discardableResult
    public static func initialiseWithoutExitCleanup() -> Bool {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
    }
}
