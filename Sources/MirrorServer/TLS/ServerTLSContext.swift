import COpenSSL
import CMirrorShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's `SSL_CTX`: certificate, key, TLS 1.2+, ALPN `http/1.1`, and optionally
/// required client certificates. Owns the context and frees it in `deinit`.
final class ServerTLSContext {
    let context: OpaquePointer

    /// Builds the context from PEM files.
    /// - Throws: ``ServerError/certificateUnreadable(path:reason:)``,
    ///   ``ServerError/privateKeyUnreadable(path:reason:)``, ``ServerError/keyMismatch(certificate:key:)``,
    ///   ``ServerError/clientCAUnreadable(path:reason:)``, ``ServerError/tlsSetupFailed(operation:reason:)``.
    init(configuration: ServerTLSConfiguration) throws(ServerError) {
        ERR_clear_error()
        guard let method = TLS_server_method(), let context = SSL_CTX_new(method) else {
            throw .tlsSetupFailed(operation: "SSL_CTX_new", reason: drainOpenSSLErrors())
        }
        self.context = context
        guard SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil) == 1 else {
            throw .tlsSetupFailed(operation: "SSL_CTX_set_min_proto_version", reason: drainOpenSSLErrors())
        }
        _ = SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        let certificate = configuration.certificateChainFile, key = configuration.privateKeyFile
        if let reason = Self.unreadable(certificate) { throw .certificateUnreadable(path: certificate, reason: reason) }
        guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
            throw .certificateUnreadable(path: certificate, reason: drainOpenSSLErrors())
        }
        if let reason = Self.unreadable(key) { throw .privateKeyUnreadable(path: key, reason: reason) }
        guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            // The key of another certificate: X509_R_KEY_VALUES_MISMATCH, told by its code.
            let code = ERR_peek_last_error()
            let mismatch = ERR_GET_LIB(code) == ERR_LIB_X509 && ERR_GET_REASON(code) == X509_R_KEY_VALUES_MISMATCH
            let reason = drainOpenSSLErrors()
            if mismatch { throw .keyMismatch(certificate: certificate, key: key) }
            throw .privateKeyUnreadable(path: key, reason: reason)
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            ERR_clear_error()
            throw .keyMismatch(certificate: certificate, key: key)
        }
        let sessionContext = Array("mtls-mirror".utf8)
        _ = SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
        if let clientCA = configuration.clientCAFile {
            if let reason = Self.unreadable(clientCA) { throw .clientCAUnreadable(path: clientCA, reason: reason) }
            guard SSL_CTX_load_verify_locations(context, clientCA, nil) == 1 else {
                throw .clientCAUnreadable(path: clientCA, reason: drainOpenSSLErrors())
            }
            guard let names = SSL_load_client_CA_file(clientCA) else {
                throw .clientCAUnreadable(path: clientCA, reason: drainOpenSSLErrors())
            }
            SSL_CTX_set_client_CA_list(context, names)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
            SSL_CTX_set_verify_depth(context, 4)
        }
        SSL_CTX_set_alpn_select_cb(context, { _, out, outLength, input, inputLength, _ in
            guard let out, let outLength, let input else { return SSL_TLSEXT_ERR_NOACK }
            let wanted = Array("http/1.1".utf8)
            var index = 0
            let total = Int(inputLength)
            while index < total {
                let length = Int(input[index])
                let start = index + 1
                guard start + length <= total else { break }
                if length == wanted.count, (0..<length).allSatisfy({ input[start + $0] == wanted[$0] }) {
                    out.pointee = input + start
                    outLength.pointee = UInt8(length)
                    return SSL_TLSEXT_ERR_OK
                }
                index = start + length
            }
            return SSL_TLSEXT_ERR_NOACK
        }, nil)
    }

    deinit { SSL_CTX_free(context) }

    /// Why a file cannot be opened for reading, or `nil` when it can.
    static func unreadable(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        close(fd)
        return nil
    }
}
