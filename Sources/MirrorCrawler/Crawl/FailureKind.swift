import MirrorCore
import MirrorHTTP
import MirrorStore

/// What kept a URL out of the mirror, decided from the typed error that said so (never from its
/// text). ``name`` is the report's stable `kind` (`server-trust`, `http-404`, …); ``category``
/// gives the exit code when the start URL failed this way.
public enum FailureKind: Sendable, Hashable {
    case serverTrust
    case clientCertificateRejected
    case clientIdentity
    case tls
    case network
    case timeout
    case tooLarge
    case decompressionBomb
    case truncated
    case tooManyRedirects
    case redirectRefused
    /// An in-scope URL that redirects out of the scope.
    case redirectOutOfScope
    /// The origin answered this status (not a 2xx, 304 or a redirect).
    case httpStatus(Int)
    case invalidURL
    /// A linked URL longer than the frontier's limit: reported, never fetched.
    case urlTooLong
    /// robots.txt disallows it.
    case robots
    /// A local file could not be written.
    case io
    case cancelled
    case proxy
    /// A failure nothing above describes (a bug).
    case `internal`

    /// The kind of a failed fetch.
    public init(_ error: HTTPError) {
        self = switch error {
        case .serverTrust: .serverTrust
        case .clientCertificateRejected: .clientCertificateRejected
        case .clientIdentity: .clientIdentity
        case .tls: .tls
        case .network: .network
        case .timeout: .timeout
        case .bodyTooLarge: .tooLarge
        case .decompressionBomb: .decompressionBomb
        case .truncated: .truncated
        case .tooManyRedirects: .tooManyRedirects
        case .redirectRefused: .redirectRefused
        case .httpStatus(_, let status): .httpStatus(status)
        case .invalidURL: .invalidURL
        case .io: .io
        case .cancelled: .cancelled
        case .curl: .internal
        case .proxyRefused, .proxyUnreachable: .proxy
        }
    }

    /// The report's `kind`.
    public var name: String {
        switch self {
        case .serverTrust: "server-trust"
        case .clientCertificateRejected: "client-certificate-rejected"
        case .clientIdentity: "client-identity"
        case .tls: "tls"
        case .network: "network"
        case .timeout: "timeout"
        case .tooLarge: "too-large"
        case .decompressionBomb: "decompression-bomb"
        case .truncated: "truncated"
        case .tooManyRedirects: "too-many-redirects"
        case .redirectRefused: "redirect-refused"
        case .redirectOutOfScope: "redirect-out-of-scope"
        case .httpStatus(let status): "http-\(status)"
        case .invalidURL: "invalid-url"
        case .urlTooLong: "url-too-long"
        case .robots: "robots"
        case .io: "io"
        case .cancelled: "cancelled"
        case .proxy: "proxy"
        case .internal: "internal"
        }
    }

    /// What a failure of this kind means for the run's exit code.
    public var category: ErrorCategory {
        switch self {
        case .serverTrust: .serverTrust
        case .clientCertificateRejected: .clientCertificateRejected
        case .clientIdentity: .clientIdentity
        case .tls, .network, .timeout, .truncated, .cancelled, .proxy: .network
        case .tooLarge, .decompressionBomb, .tooManyRedirects, .redirectRefused, .urlTooLong: .limit
        case .httpStatus: .http
        case .invalidURL, .robots, .redirectOutOfScope: .usage
        case .io: .io
        case .internal: .internal
        }
    }
}
