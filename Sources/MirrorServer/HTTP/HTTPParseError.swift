import MirrorCore

/// Why a request could not be parsed; each case maps to the status sent before closing.
///
/// After any of these the connection is closed: the framing of what follows cannot be trusted.
public enum HTTPParseError: DiagnosableError, Equatable {
    /// The request line is longer than `limit` bytes (414).
    case requestLineTooLong(limit: Int)
    /// The header section is larger than `limit` bytes (431).
    case headerSectionTooLarge(limit: Int)
    /// More than `limit` header fields (431).
    case tooManyHeaders(limit: Int)
    /// The request line is not `method SP target SP version` (400).
    case malformedRequestLine(reason: String)
    /// An HTTP/0.9 request: a request line without a version (400).
    case missingVersion
    /// A version other than HTTP/1.0 or HTTP/1.1 (505).
    case unsupportedVersion(version: String)
    /// The method is not a token (400).
    case invalidMethod
    /// The request target has forbidden bytes or form (400).
    case invalidTarget(reason: String)
    /// A header line is not `name: value` or its name is not a token (400).
    case invalidHeaderName(line: String)
    /// A header value carries a control character (400).
    case invalidHeaderValue(name: String)
    /// Whitespace between a header name and the colon (400, RFC 9112 §5.1).
    case whitespaceBeforeColon(name: String)
    /// A header line continued on the next line (obs-fold, 400, RFC 9112 §5.2).
    case obsoleteLineFolding
    /// A carriage return not followed by a line feed, or a NUL byte (400).
    case invalidLineEnding
    /// No `Host` header in an HTTP/1.1 request (400, RFC 9112 §3.2).
    case missingHost
    /// More than one `Host` header (400).
    case duplicateHost
    /// A `Host` value with forbidden characters (400).
    case invalidHost(value: String)
    /// An invalid or contradictory `Content-Length` (400).
    case invalidContentLength(value: String)
    /// Both `Content-Length` and `Transfer-Encoding` (400, a smuggling pattern).
    case conflictingFraming
    /// A GET or HEAD request that carries a body (400).
    case bodyNotAllowed(method: String)

    /// The status code to answer with.
    public var status: Int {
        switch self {
        case .requestLineTooLong: 414
        case .headerSectionTooLarge, .tooManyHeaders: 431
        case .unsupportedVersion: 505
        default: 400
        }
    }

    /// A short reason for the error page and the log.
    public var reason: String {
        switch self {
        case .requestLineTooLong(let limit): "request line longer than \(limit) bytes"
        case .headerSectionTooLarge(let limit): "header section larger than \(limit) bytes"
        case .tooManyHeaders(let limit): "more than \(limit) header fields"
        case .malformedRequestLine(let reason): "malformed request line: \(reason)"
        case .missingVersion: "HTTP/0.9 requests are not supported"
        case .unsupportedVersion(let version): "unsupported protocol version \(version)"
        case .invalidMethod: "the method is not a valid token"
        case .invalidTarget(let reason): "invalid request target: \(reason)"
        case .invalidHeaderName(let line): "invalid header line \(line.prefix(40).debugDescription)"
        case .invalidHeaderValue(let name): "control character in the value of \(name)"
        case .whitespaceBeforeColon(let name): "whitespace between \(name) and the colon"
        case .obsoleteLineFolding: "folded header lines (obs-fold) are not accepted"
        case .invalidLineEnding: "a bare carriage return or NUL byte"
        case .missingHost: "an HTTP/1.1 request without Host"
        case .duplicateHost: "more than one Host header"
        case .invalidHost(let value): "invalid Host \(value.prefix(40).debugDescription)"
        case .invalidContentLength(let value): "invalid Content-Length \(value.prefix(40).debugDescription)"
        case .conflictingFraming: "both Content-Length and Transfer-Encoding"
        case .bodyNotAllowed(let method): "a \(method) request must not carry a body"
        }
    }

    public var category: ErrorCategory { .http }
    public var summary: String { "bad request (\(status)): \(reason)" }
    public var hint: String { "the client sent a request this server does not accept" }
}
