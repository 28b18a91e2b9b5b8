import COpenSSL
import Foundation

/// Starts, on a thread of the runtime's pool, what the first TLS handshake of a run would otherwise do
/// while the connection waits: the trust policy's anchors and CRLs are loaded
/// (``ServerTrustEvaluating/prepare()``) and OpenSSL's first `SSL_CTX` is made, which fills
/// its method and algorithm tables. Started once the client identity is read, it runs while
/// the caller creates the output folder and the run's files: a two-page mirror's first
/// handshake took 0.9 ms less.
///
/// Not before the identity: while a PKCS#12 file is parsed, OpenSSL's first calls fill the
/// same tables under the same locks, and the two threads took turns sleeping on them (the
/// parse took 5-8 ms instead of 3 ms alone, issue #27).
///
/// Not on a new thread: libcurl is usually still being opened then (`CurlGlobal.preload()`,
/// in MirrorHTTP), and `pthread_create` waits for a `dlopen` in progress (glibc's loader
/// lock), which held the caller up to 4 ms. The pool's second thread is already running.
public enum TLSWarmUp {
    /// - Parameters:
    ///   - trust: the run's trust table.
    ///   - hosts: the hosts the run connects to first (its start URLs' hosts).
    public static func start(trust: ServerTrustManager, hosts: [String]) {
        Task.detached(priority: .userInitiated) {
            trust.prepare(hosts: hosts)
            if let context = SSL_CTX_new(TLS_client_method()) { SSL_CTX_free(context) }
        }
    }
}
