/// An HTTP protocol version such as 1.1.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major number.
    public var major: Int
    /// The minor number.
    public var minor: Int

    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// Creates a version.
    /// - Parameters:
    ///   - major: the major number.
    ///   - minor: the minor number.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.1` and so on.
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// A parsed request line and header section.
///
/// Produced by ``HTTPRequestParser``; the body, if there was one within the limit, has been
/// read into ``body`` (this server serves GET and HEAD, and answers a POST only through a
/// ``RequestInterceptor``: render mode's replay).
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method token, case-sensitive (`GET`, `HEAD`, …).
    public var method: String
    /// The request target exactly as sent (origin-form, absolute-form, `*` or authority-form).
    public var target: String
    /// The raw (still percent-encoded) path of the target: for absolute-form the path after the
    /// authority, `/` when empty; for `*` and authority-form the target itself.
    public var path: String
    /// The raw query after `?`, without the `?`; `nil` when there is none.
    public var query: String?
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders
    /// Whether the connection may stay open after the response (RFC 9112 §9.3): HTTP/1.1
    /// unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`. Also false
    /// when the request had a body this server would not read.
    public var keepAlive: Bool
    /// A `Content-Length` body of at most ``HTTPParserLimits/discardableBodySize`` bytes; nil
    /// when the request had none (or one too large to read).
    public var body: [UInt8]?

    /// Creates a request head.
    /// - Parameters:
    ///   - method: the method token.
    ///   - target: the request target as sent.
    ///   - path: the raw path.
    ///   - query: the raw query, without `?`.
    ///   - version: the protocol version.
    ///   - headers: the header fields.
    ///   - keepAlive: whether the connection persists.
    public init(
        method: String, target: String, path: String, query: String?, version: HTTPVersion,
        headers: HTTPHeaders, keepAlive: Bool, body: [UInt8]? = nil
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.keepAlive = keepAlive
        self.body = body
    }

    /// The request line as sent, for the access log.
    public var requestLine: String { "\(method) \(target) \(version)" }
}
