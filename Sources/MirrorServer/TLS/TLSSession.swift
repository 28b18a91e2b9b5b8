import COpenSSL
import CMirrorShims

/// The outcome of a non-blocking OpenSSL call.
enum TLSIOResult: Equatable {
    /// This many bytes were read or written (or the handshake finished, with 0).
    case done(Int)
    /// Call again when the socket is readable.
    case wantRead
    /// Call again when the socket is writable.
    case wantWrite
    /// The peer closed the TLS session.
    case closed
    /// A fatal error (handshake failure, bad record, …).
    case failed(String)
}

/// One server-side TLS session on a non-blocking socket. Owns its `SSL` and frees it in
/// `deinit`; confined to the event-loop thread.
final class TLSSession {
    let ssl: OpaquePointer
    /// Whether `SSL_accept` has completed.
    private(set) var handshakeComplete = false
    /// The verified client certificate's subject (RFC 2253), after the handshake.
    private(set) var clientSubject: String?

    init?(context: ServerTLSContext, descriptor: Int32) {
        guard let ssl = SSL_new(context.context) else { return nil }
        self.ssl = ssl
        guard SSL_set_fd(ssl, descriptor) == 1 else { return nil }
    }

    deinit { SSL_free(ssl) }

    /// Advances the handshake.
    func handshake() -> TLSIOResult {
        ERR_clear_error()
        let result = SSL_accept(ssl)
        if result == 1 {
            handshakeComplete = true
            clientSubject = readPeerSubject()
            return .done(0)
        }
        return classify(result)
    }

    /// Reads decrypted bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> TLSIOResult {
        ERR_clear_error()
        let result = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
        return result > 0 ? .done(Int(result)) : classify(result)
    }

    /// Encrypts and writes bytes from `buffer` (a partial write is possible).
    func write(_ buffer: UnsafeRawBufferPointer) -> TLSIOResult {
        ERR_clear_error()
        let result = SSL_write(ssl, buffer.baseAddress, Int32(buffer.count))
        return result > 0 ? .done(Int(result)) : classify(result)
    }

    /// Sends close_notify (best effort; the socket is closed right after).
    func shutdown() {
        ERR_clear_error()
        if handshakeComplete { _ = SSL_shutdown(ssl) }
        ERR_clear_error()
    }

    private func classify(_ result: Int32) -> TLSIOResult {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL:
            let reason = drainOpenSSLErrors()
            return reason == "unknown OpenSSL error" ? .closed : .failed(reason)
        default: return .failed(drainOpenSSLErrors())
        }
    }

    private func readPeerSubject() -> String? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        guard let name = X509_get_subject_name(certificate), let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, CMirrorShims_XN_FLAG_RFC2253()) >= 0 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = CMirrorShims_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }
}
