#if canImport(Glibc)
import Glibc
#endif
import MirrorCore
import MirrorTLS

/// Why a fetch failed. Every case carries the URL and the evidence (libcurl's code and text,
/// the trust evaluator's verdict, the status) so that a one-line message can name the cause.
public enum HTTPError: DiagnosableError, Sendable {
    /// The server's certificate failed the trust policy; the handshake was aborted before any
    /// request byte (and, on TLS 1.3, before the client certificate) was sent.
    case serverTrust(url: String, TrustError)
    /// The server refused the client certificate: a TLS alert during the handshake, or (as nginx
    /// does after a TLS 1.3 handshake) HTTP 400 "No required SSL certificate was sent" /
    /// "The SSL certificate error".
    case clientCertificateRejected(url: String, identitySent: Bool, detail: String)
    /// The client identity could not be installed into the TLS context.
    case clientIdentity(url: String, detail: String)
    /// Any other TLS failure (protocol mismatch, handshake error).
    case tls(url: String, code: Int32, message: String)
    /// DNS, connect, reset, or a transfer cut short.
    case network(url: String, code: Int32, message: String)
    /// The connect, idle or total time limit ran out.
    case timeout(url: String, message: String)
    /// The body exceeded the configured cap.
    case bodyTooLarge(url: String, limit: Int64)
    /// The decoded body grew more than the allowed ratio over the compressed bytes.
    case decompressionBomb(url: String, ratio: Double)
    /// The response ended before its Content-Length.
    case truncated(url: String, message: String)
    /// More redirects than allowed, or a loop.
    case tooManyRedirects(url: String, chain: [String])
    /// A redirect to a scheme or host that policy forbids (`file:`, plain `http:` from `https:`).
    case redirectRefused(from: String, to: String, reason: String)
    /// The server answered with an HTTP error status (raised by callers that want one).
    case httpStatus(url: String, status: Int)
    /// The URL cannot be fetched (bad syntax, unsupported scheme).
    case invalidURL(String, reason: String)
    /// Writing the body to disk failed with this errno (`ENOSPC`: the disk is full).
    case io(path: String, errno: Int32)
    /// The task was cancelled.
    case cancelled(url: String)
    /// An unexpected libcurl failure.
    case curl(url: String, code: Int32, message: String)
    /// The proxy answered the CONNECT with an error status (403 denied, 407 authentication).
    case proxyRefused(url: String, proxy: String, status: Int)
    /// The proxy could not be reached (name, connection, or its own TLS handshake).
    case proxyUnreachable(url: String, proxy: String, code: Int32, message: String)

    public var category: ErrorCategory {
        switch self {
        case .serverTrust: .serverTrust
        case .clientCertificateRejected: .clientCertificateRejected
        case .clientIdentity: .clientIdentity
        case .tls, .network, .timeout, .truncated, .cancelled, .proxyRefused, .proxyUnreachable: .network
        case .bodyTooLarge, .decompressionBomb, .tooManyRedirects, .redirectRefused: .limit
        case .httpStatus: .http
        case .invalidURL: .usage
        case .io: .io
        case .curl: .internal
        }
    }

    public var url: String {
        switch self {
        case .serverTrust(let url, _), .clientCertificateRejected(let url, _, _), .clientIdentity(let url, _),
             .tls(let url, _, _), .network(let url, _, _), .timeout(let url, _), .bodyTooLarge(let url, _),
             .decompressionBomb(let url, _), .truncated(let url, _), .tooManyRedirects(let url, _),
             .httpStatus(let url, _), .cancelled(let url), .curl(let url, _, _),
             .proxyRefused(let url, _, _), .proxyUnreachable(let url, _, _, _):
            url
        case .redirectRefused(let from, _, _): from
        case .invalidURL(let url, _): url
        case .io(let path, _): path
        }
    }

    public var summary: String {
        switch self {
        case .serverTrust(let url, let error):
            "server trust failed for \(url): \(error.summary)"
        case .clientCertificateRejected(let url, let sent, let detail):
            sent ? "the server rejected the client certificate at \(url): \(detail)"
                : "the server requires a client certificate at \(url), and none was sent: \(detail)"
        case .clientIdentity(let url, let detail):
            "could not use the client identity for \(url): \(detail)"
        case .tls(let url, let code, let message):
            "TLS handshake with \(url) failed (curl \(code)): \(message)"
        case .network(let url, let code, let message):
            "network error for \(url) (curl \(code)): \(message)"
        case .timeout(let url, let message):
            "timed out fetching \(url): \(message)"
        case .bodyTooLarge(let url, let limit):
            "\(url) is larger than the limit of \(limit) bytes"
        case .decompressionBomb(let url, let ratio):
            "\(url) decompresses to more than \(Int(ratio)) times its transferred size"
        case .truncated(let url, let message):
            "\(url) ended early: \(message)"
        case .tooManyRedirects(let url, let chain):
            "too many redirects from \(url) (\(chain.count) hops: \(chain.suffix(3).joined(separator: " -> ")))"
        case .redirectRefused(let from, let to, let reason):
            "refused redirect from \(from) to \(to): \(reason)"
        case .httpStatus(let url, let status):
            "\(url) answered HTTP \(status)"
        case .invalidURL(let url, let reason):
            "cannot fetch \(url): \(reason)"
        case .io(let path, let code):
            "cannot write \(path): \(String(cString: strerror(code)))"
        case .cancelled(let url):
            "fetch of \(url) was cancelled"
        case .curl(let url, let code, let message):
            "libcurl failed on \(url) (code \(code)): \(message)"
        case .proxyRefused(let url, let proxy, let status):
            "the proxy \(proxy) refused the tunnel to \(url): CONNECT answered HTTP \(status)"
        case .proxyUnreachable(let url, let proxy, let code, let message):
            "cannot reach the proxy \(proxy) for \(url) (curl \(code)): \(message)"
        }
    }

    public var hint: String {
        switch self {
        case .serverTrust(_, let error): error.hint
        case .clientCertificateRejected(_, let sent, _):
            sent ? "check that the certificate is issued by a CA the server trusts, is not expired, and that its chain is complete"
                : "give a client certificate (PKCS#12 or PEM) and its password, and make sure this host is in the identity's scope"
        case .clientIdentity: "check the certificate and key files with `mtls-mirror inspect`"
        case .tls: "run `mtls-mirror inspect URL` to see the handshake; the server may not support TLS 1.2+"
        case .network: "check the host name, port and that the server is reachable"
        case .timeout: "raise the connect or transfer time limit, or check the server"
        case .bodyTooLarge: "raise the file size limit"
        case .decompressionBomb: "the server sent a suspicious compressed body; raise the decompression ratio limit only if you trust it"
        case .truncated: "the server or a proxy cut the response; retry later"
        case .tooManyRedirects: "the site redirects in a loop or too deep; raise the redirect limit if it is legitimate"
        case .redirectRefused: "fetch the target URL directly if you trust it"
        case .httpStatus: ""
        case .invalidURL: "use an absolute http:// or https:// URL"
        case .io(_, let code) where code == ENOSPC || code == EDQUOT: "free disk space and run again"
        case .io: "check the output path and its permissions"
        case .cancelled: ""
        case .curl: "this is unexpected; please report it with the URL"
        case .proxyRefused(_, _, 407): "the proxy wants credentials: give the proxy's user and password (config: proxy.user, proxy.password)"
        case .proxyRefused: "ask the proxy's administrators to allow CONNECT to this host and port, or reach this host directly (past the proxy)"
        case .proxyUnreachable: "check the proxy's URL (host, port, http:// or https://), and the proxy's CA for an HTTPS proxy with a private CA"
        }
    }
}
