import MirrorCore

/// The tool's documented exit codes (README "Exit codes").
public enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// An unexpected failure (a bug, or a library failing in a way we did not foresee).
    case internalError = 1
    /// Bad command line or config file.
    case usage = 2
    /// The client identity could not be loaded: wrong password, unreadable, expired, no key…
    case clientIdentity = 3
    /// The server's certificate failed the trust policy.
    case serverTrust = 4
    /// The server refused the client certificate, or required one that was not sent.
    case clientCertificateRejected = 5
    /// The server answered with an HTTP error status.
    case httpError = 6
    /// DNS, connect, timeout, reset, TLS protocol failure.
    case network = 7
    /// Local file-system failure (disk full, permissions).
    case io = 8
    /// A limit was hit (file size, redirects, decompression ratio).
    case limit = 9
    /// A mirror or refresh was published, but some URLs failed or its time budget ran out
    /// before everything was fetched (see the report).
    case partial = 10
    /// Another run of the same site holds its lock; nothing was done.
    case busy = 11
    /// Render mode: the browser is unavailable or could not render (Chromium missing, or it
    /// failed to start in its network namespace).
    case browserUnavailable = 12
    /// A hardware token refused the PIN, or its PIN is locked.
    case tokenPIN = 13
    /// The hardware token is not present.
    case tokenAbsent = 14
    /// The key or certificate is not on the token.
    case tokenObjectAbsent = 15
    /// The PKCS#11 module or OpenSSL's bridge to it is not installed.
    case tokenModule = 16
    /// The job was interrupted (SIGINT/SIGTERM): after a first signal the run published what
    /// it had (partial, the rest kept stale from the previous snapshot); after a second,
    /// nothing was published and the previous snapshot is untouched.
    case interrupted = 130

    /// The exit code for an error category.
    public init(_ category: ErrorCategory) {
        switch category {
        case .usage: self = .usage
        case .clientIdentity: self = .clientIdentity
        case .serverTrust: self = .serverTrust
        case .clientCertificateRejected: self = .clientCertificateRejected
        case .http: self = .httpError
        case .network: self = .network
        case .io: self = .io
        case .limit: self = .limit
        case .internal: self = .internalError
        case .browser: self = .browserUnavailable
        case .tokenPIN: self = .tokenPIN
        case .tokenAbsent: self = .tokenAbsent
        case .tokenObjectAbsent: self = .tokenObjectAbsent
        case .tokenModule: self = .tokenModule
        }
    }

    /// One line for the README table and `--help`.
    public var meaning: String {
        switch self {
        case .success: "success"
        case .internalError: "unexpected internal error"
        case .usage: "usage or config error"
        case .clientIdentity: "client identity error (certificate, key, password)"
        case .serverTrust: "server trust failure (certificate, hostname, revocation, pin)"
        case .clientCertificateRejected: "client certificate rejected or required by the server"
        case .httpError: "HTTP error status"
        case .network: "network or TLS protocol error"
        case .io: "local file error"
        case .limit: "a limit was exceeded (size, redirects, decompression)"
        case .partial: "partial: published, but some URLs failed or the run-time budget ran out (see the report)"
        case .busy: "another run of the same site is in progress (site lock held)"
        case .browserUnavailable: "render mode: the browser is unavailable or could not start (install the Debian package chromium)"
        case .tokenPIN: "hardware token: wrong PIN, or the PIN is locked"
        case .tokenAbsent: "hardware token not present"
        case .tokenObjectAbsent: "hardware token: key or certificate not on it"
        case .tokenModule: "PKCS#11 module (or OpenSSL's bridge to it) not installed"
        case .interrupted: "interrupted: a first signal publishes what was fetched, a second aborts and keeps the previous snapshot"
        }
    }
}
