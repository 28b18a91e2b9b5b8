import CCurl

/// Turns a failed transfer's CURLcode (and what the TLS callbacks recorded) into an
/// ``HTTPError`` that names the cause.
enum CurlErrorMapper {
    static func map(code: CURLcode, transfer: CurlTransfer) -> HTTPError {
        let url = transfer.request.url
        let message = transfer.errorText(code)
        let raw = Int32(code.rawValue)
        // Our evaluator refused the server: that is the cause, whatever curl reports after it.
        if let trustError = transfer.outcome.trustError {
            return .serverTrust(url: url, trustError)
        }
        if let proxyError = proxyFailure(code: code, transfer: transfer, message: message) { return proxyError }
        if let rejection = ClientCertificateRejection.detect(tlsMessage: message) {
            return .clientCertificateRejected(url: url, identitySent: transfer.profile?.identity != nil, detail: rejection)
        }
        switch code {
        case CURLE_SSL_CERTPROBLEM:
            return .clientIdentity(url: url, detail: message)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(url, reason: message)
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout(url: url, message: message)
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(url: url, limit: transfer.request.maxBodyBytes ?? 0)
        case CURLE_PARTIAL_FILE:
            return .truncated(url: url, message: message)
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled(url: url)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return .tls(url: url, code: raw, message: message)
        default:
            return .network(url: url, code: raw, message: message)
        }
    }
}
