import COpenSSL

extension TLSProfile {
    /// Whether libcurl set up this `SSL_CTX` to verify the peer itself.
    ///
    /// libcurl calls `CURLOPT_SSL_CTX_FUNCTION` for every TLS handshake of a transfer, and with
    /// an HTTPS proxy that includes the handshake with the proxy (its OpenSSL backend runs the
    /// callback in the connect step shared by both hops). The HTTP engine turns libcurl's own
    /// verification off for the origin (`CURLOPT_SSL_VERIFYPEER` 0: a ``TLSProfile`` decides
    /// there) and on for the proxy (`CURLOPT_PROXY_SSL_VERIFYPEER` 1), and libcurl applies that
    /// with `SSL_CTX_set_verify` before the callback. So a context already in `SSL_VERIFY_PEER`
    /// mode is the proxy's, and must get neither the client identity nor the origin's evaluator.
    ///
    /// - Parameter sslContext: the `SSL_CTX *` passed to the callback.
    public static func isVerifiedByLibcurl(sslContext: UnsafeMutableRawPointer) -> Bool {
        SSL_CTX_get_verify_mode(OpaquePointer(sslContext)) & SSL_VERIFY_PEER != 0
    }
}
