import CMirrorShims
import COpenSSL
import Foundation

/// One (client identity, server-trust policy) pair, applied to every connection made with it.
///
/// The HTTP engine calls ``configure(sslContext:host:port:outcome:)`` from libcurl's
/// `CURLOPT_SSL_CTX_FUNCTION` (curl creates one `SSL_CTX` per connection). It installs the
/// identity and replaces OpenSSL's chain verification with ``evaluator`` through
/// `SSL_CTX_set_cert_verify_callback`, so a refused server is dropped during the handshake,
/// before any request byte is sent.
///
/// IMPORTANT: curl cannot see what this callback installs, and would happily reuse an
/// authenticated connection for a request configured with another identity or policy. The
/// HTTP engine must therefore keep a SEPARATE connection pool (multi/share handles) per profile
/// object, even for two profiles with equal parts.
public final class TLSProfile: Sendable {
    /// The client identity, or nil to connect without a client certificate.
    public let identity: ClientIdentity?
    /// The server-trust policy.
    public let evaluator: any ServerTrustEvaluating

    /// Creates a profile.
    ///
    /// - Parameters:
    ///   - identity: the client identity to present, if any.
    ///   - evaluator: the policy that decides whether to trust each server.
    public init(identity: ClientIdentity?, evaluator: any ServerTrustEvaluating) {
        self.identity = identity
        self.evaluator = evaluator
    }

    /// Prepares curl's `SSL_CTX` for one connection.
    ///
    /// Installs the identity, forces `SSL_VERIFY_PEER`, requests OCSP stapling, and installs the
    /// verify callback (which records into `outcome` and accepts or aborts the handshake). The
    /// callback's context is retained in the `SSL_CTX`'s ex_data and released when the context is
    /// freed, so it stays valid for as long as curl keeps the connection.
    ///
    /// - Parameters:
    ///   - sslContext: the `SSL_CTX *` curl passes to its callback.
    ///   - host: the host being connected to (for host validation and messages).
    ///   - port: the port being connected to.
    ///   - outcome: where the handshake's result is recorded.
    /// - Returns: false when the identity could not be installed or the context could not be
    ///   prepared (the caller should fail the transfer); true otherwise.
    public func configure(sslContext: UnsafeMutableRawPointer, host: String, port: Int, outcome: HandshakeOutcome) -> Bool {
        let context = OpaquePointer(sslContext)
        if let identity {
            do { try identity.install(into: context) } catch { return false }
        }
        let index = VerifyContext.exDataIndex
        guard index >= 0 else { return false }
        let box = VerifyContext(profile: self, host: host, port: port, outcome: outcome)
        let argument = Unmanaged.passRetained(box).toOpaque()
        if let previous = SSL_CTX_get_ex_data(context, index) {
            Unmanaged<VerifyContext>.fromOpaque(previous).release()
        }
        guard SSL_CTX_set_ex_data(context, index, argument) == 1 else {
            Unmanaged<VerifyContext>.fromOpaque(argument).release()
            _ = OpenSSLErrorQueue.drain()
            return false
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = CMirrorShims_SSL_CTX_set_tlsext_status_type(context, TLSEXT_STATUSTYPE_ocsp)
        SSL_CTX_set_cert_verify_callback(context, VerifyContext.callback, argument)
        return true
    }
}
