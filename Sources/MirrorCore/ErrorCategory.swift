/// The kind of failure an error belongs to. The CLI maps each category to a documented exit
/// code, so every module's errors say which one they are.
public enum ErrorCategory: String, Sendable, Codable, CaseIterable {
    /// Bad command line or config file.
    case usage
    /// The client identity (certificate, key, password) could not be loaded or is invalid.
    case clientIdentity
    /// The server's certificate did not pass the trust policy.
    case serverTrust
    /// The server refused the client certificate (TLS alert or HTTP 400 from nginx).
    case clientCertificateRejected
    /// The server answered with an HTTP error status.
    case http
    /// DNS, connect, timeout, reset, or a TLS failure not caused by trust.
    case network
    /// Local file-system failure (disk full, permissions).
    case io
    /// A limit was hit (size cap, decompression ratio, redirects).
    case limit
    /// The headless browser of render mode is missing, could not be isolated, or failed to start.
    case browser
    /// A bug or an unexpected library failure.
    case `internal`
    /// A hardware token refused the PIN, or its PIN is locked.
    case tokenPIN
    /// The hardware token (smart card, USB token, HSM slot) is not present.
    case tokenAbsent
    /// The key or certificate is not on the token.
    case tokenObjectAbsent
    /// The PKCS#11 module (or OpenSSL's bridge to it) is not installed.
    case tokenModule
}

/// An error that can explain itself to a user in one line, and say what to try.
public protocol DiagnosableError: Error, CustomStringConvertible {
    /// Which kind of failure this is.
    var category: ErrorCategory { get }
    /// One line naming what failed, with the evidence (file, host, URL, code).
    var summary: String { get }
    /// What to try next. Empty when there is nothing useful to say.
    var hint: String { get }
}

extension DiagnosableError {
    public var description: String { hint.isEmpty ? summary : "\(summary) (\(hint))" }
}
