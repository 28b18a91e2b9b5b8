import CCurl
import CMirrorShims
import Foundation

extension CurlTransfer {
    /// Sets the proxy options: none at all for a direct transfer (which also stops libcurl
    /// from reading `https_proxy` and its kin), or a CONNECT tunnel through ``proxy``.
    ///
    /// An HTTPS proxy's own certificate is verified by libcurl (`CURLOPT_PROXY_SSL_VERIFYPEER`,
    /// against `CURLOPT_PROXY_CAINFO` or the system store); that this hop is verified by libcurl
    /// is also how the SSL_CTX callback tells it from the origin's handshake
    /// (``TLSProfile/isVerifiedByLibcurl(sslContext:)``), which libcurl verifies not at all.
    func configureProxy() throws(HTTPError) {
        let url = request.url
        func check(_ code: CURLcode, _ what: String) throws(HTTPError) {
            if code != CURLE_OK { throw .curl(url: url, code: Int32(code.rawValue), message: "\(what): \(CurlGlobal.describe(code))") }
        }
        guard let proxy else {
            try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_PROXY, ""), "no proxy")
            return
        }
        try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_PROXY, proxy.url), "proxy")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1), "proxy tunnel")
        try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_NOPROXY, proxy.noProxy.joined(separator: ",")), "noproxy")
        if let username = proxy.username {
            try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_PROXYUSERNAME, username), "proxy user")
            try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_PROXYPASSWORD, proxy.password?.reveal() ?? ""), "proxy password")
            try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_PROXYAUTH, 1 /* CURLAUTH_BASIC, a cast macro Swift does not import */), "proxy auth")
        }
        if proxy.isHTTPS {
            try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_PROXY_SSL_VERIFYPEER, 1), "proxy verify peer")
            try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_PROXY_SSL_VERIFYHOST, 2), "proxy verify host")
            if let caFile = proxy.caFile {
                try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_PROXY_CAINFO, caFile), "proxy CA file")
            }
        }
    }

    /// Whether the transfer's host is one of the proxy's exceptions (as `CURLOPT_NOPROXY` matches).
    var bypassesProxy: Bool {
        guard let proxy else { return true }
        let name = host.lowercased()
        return proxy.noProxy.contains { entry in
            let pattern = entry.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            return entry == "*" || name == pattern || name.hasSuffix("." + pattern)
        }
    }
}

extension CurlErrorMapper {
    /// The failure as a proxy error, when it was the proxy's: a CONNECT answered with an error
    /// status (`CURLINFO_HTTP_CONNECTCODE`), or a proxy that could not be resolved, reached or
    /// handshaken with.
    static func proxyFailure(code: CURLcode, transfer: CurlTransfer, message: String) -> HTTPError? {
        guard let proxy = transfer.proxy, !transfer.bypassesProxy else { return nil }
        let url = transfer.request.url
        var connectCode = 0
        _ = CMirrorShims_curl_easy_getinfo_long(transfer.easy, CURLINFO_HTTP_CONNECTCODE, &connectCode)
        if connectCode >= 300 { return .proxyRefused(url: url, proxy: proxy.url, status: connectCode) }
        switch code {
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY, CURLE_COULDNT_CONNECT:
            return .proxyUnreachable(url: url, proxy: proxy.url, code: Int32(code.rawValue), message: message)
        case CURLE_SSL_CONNECT_ERROR where transfer.outcome.trustError == nil && transfer.outcome.serverTrust == nil,
             CURLE_PEER_FAILED_VERIFICATION where transfer.outcome.trustError == nil && transfer.outcome.serverTrust == nil:
            // No origin handshake was seen: the TLS failure was the proxy's.
            return .proxyUnreachable(url: url, proxy: proxy.url, code: Int32(code.rawValue), message: message)
        default:
            return nil
        }
    }
}
