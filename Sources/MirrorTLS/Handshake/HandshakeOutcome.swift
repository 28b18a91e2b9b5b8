import Foundation

/// What happened during one TLS handshake: what the server presented, why we refused it (if we
/// did), and the negotiated parameters.
///
/// Written from curl's thread inside the certificate-verify callback and read by the HTTP engine
/// after the transfer; every access takes the lock.
public final class HandshakeOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var storedTrust: ServerTrust?
    private var storedError: TrustError?
    private var storedVersion: String?
    private var storedCipher: String?
    private var storedALPN: String?

    /// Creates an empty outcome.
    public init() {}

    /// What the server presented, once the verify callback ran.
    public var serverTrust: ServerTrust? { lock.withLock { storedTrust } }
    /// Why the policy refused the server, if it did.
    public var trustError: TrustError? { lock.withLock { storedError } }
    /// The protocol version (`SSL_get_version`), e.g. `TLSv1.3`.
    public var tlsVersion: String? { lock.withLock { storedVersion } }
    /// The cipher suite (`SSL_CIPHER_get_name`).
    public var cipher: String? { lock.withLock { storedCipher } }
    /// The ALPN protocol the server selected (`SSL_get0_alpn_selected`), e.g. `h2`.
    public var alpn: String? { lock.withLock { storedALPN } }

    /// Records the negotiated parameters of the connection a transfer runs on, for transfers
    /// that reuse a connection whose handshake happened earlier (no verify callback then).
    ///
    /// - Parameter ssl: the connection's `SSL *` (libcurl's CURLINFO_TLS_SSL_PTR).
    public func recordConnection(ssl: UnsafeMutableRawPointer) {
        let (version, cipher, alpn) = VerifyContext.negotiated(OpaquePointer(ssl))
        lock.withLock {
            storedVersion = version
            storedCipher = cipher
            storedALPN = alpn
        }
    }

    func record(trust: ServerTrust?, error: TrustError?, version: String?, cipher: String?, alpn: String?) {
        lock.withLock {
            storedTrust = trust
            storedError = error
            storedVersion = version
            storedCipher = cipher
            storedALPN = alpn
        }
    }
}
