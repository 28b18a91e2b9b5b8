import Foundation
import MirrorCore

/// One HTTP request, as the engine sends it: a GET (or HEAD, or a POST with its body) with
/// headers and limits.
///
/// Redirects are never followed inside a request; ``HTTPClient/fetch(_:security:redirects:retries:)``
/// follows them hop by hop so that each hop gets its own identity and trust decision.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET", head = "HEAD"
        /// Sent only for a page that render mode loads (a script's POST), with ``HTTPRequest/body``.
        case post = "POST"
    }

    /// Where the response body goes.
    public enum BodyDestination: Sendable, Equatable {
        /// Kept in memory, in ``HTTPResponse/body``.
        case memory
        /// Streamed to this file (created 0600, truncated). Error responses (status >= 400) are
        /// kept in memory instead, so an error page never replaces a file.
        case file(String)
        /// Kept in memory while the body is at most `limit` bytes; a larger body is streamed to
        /// the file instead (what arrived so far is written first), as for ``file(_:)``. The
        /// response says which: ``HTTPResponse/bodyFile`` is set only when the file was used.
        /// Small bodies then cost no file and no second read; memory stays bounded by `limit`
        /// per transfer.
        case memoryUpTo(Int, thenFile: String)
        /// Counted and hashed, then dropped.
        case discard

        /// The file a body may be streamed to.
        public var filePath: String? {
            switch self {
            case .file(let path), .memoryUpTo(_, let path): path
            case .memory, .discard: nil
            }
        }
    }

    /// Connect, header, stall and total time limits (libcurl CURLOPT_CONNECTTIMEOUT_MS,
    /// CURLOPT_LOW_SPEED_TIME/LIMIT, CURLOPT_TIMEOUT_MS; the header deadline is the engine's).
    ///
    /// The defaults end a response that trickles within 60 s: headers must be complete 30 s
    /// after the request left, and a body slower than 512 bytes a second for 30 s is cut off.
    public struct Timeouts: Sendable, Equatable {
        public var connect: TimeInterval
        /// The transfer fails when fewer than `lowSpeedBytes` arrive per second for this long.
        public var idle: TimeInterval
        /// The floor rate, in bytes per second, over the `idle` window.
        public var lowSpeedBytes: Int
        public var total: TimeInterval
        /// The response's status line and headers must be complete this long after the request
        /// was sent (a server that trickles header lines, one every few seconds, never ends
        /// otherwise: each line resets a plain idle timer).
        public var headers: TimeInterval
        public init(connect: TimeInterval = 15, idle: TimeInterval = 30, lowSpeedBytes: Int = 512, total: TimeInterval = 600,
                    headers: TimeInterval = 30) {
            self.connect = connect
            self.idle = idle
            self.lowSpeedBytes = lowSpeedBytes
            self.total = total
            self.headers = headers
        }
    }

    public var url: String
    /// `url` already parsed by the caller (the crawler has every URL as a ``WebURL``), to
    /// spare a second parse. Used only while its text is `url` (a redirect changes `url`).
    public var parsedURL: WebURL?
    public var method: Method
    /// Extra request headers, sent in order. `Host`, `Accept-Encoding` and the conditional
    /// headers are managed by the engine.
    public var headers: [(name: String, value: String)]
    /// Sent as `If-None-Match` (RFC 9110 §13.1.2).
    public var ifNoneMatch: String?
    /// Sent as `If-Modified-Since` (RFC 9110 §13.1.3), verbatim as the server sent Last-Modified.
    public var ifModifiedSince: String?
    public var destination: BodyDestination
    /// The largest decoded body accepted; larger bodies fail with ``HTTPError/bodyTooLarge(url:limit:)``.
    public var maxBodyBytes: Int64?
    /// Ask for gzip, deflate and br, and decode them.
    public var acceptCompression: Bool
    /// Decoded bytes may be at most this many times the bytes on the wire (zip-bomb guard).
    public var maxDecompressionRatio: Double
    public var timeouts: Timeouts
    public var userAgent: String
    /// Turn nginx's "No required SSL certificate was sent" 400 page into
    /// ``HTTPError/clientCertificateRejected(url:identitySent:detail:)`` (on by default).
    public var detectCertificateRejection: Bool = true
    /// fsync a `.file` body when it is complete (on by default; a snapshot syncs once instead).
    public var syncFile: Bool = true
    /// Who makes the file of a ``BodyDestination/file(_:)`` or ``BodyDestination/memoryUpTo(_:thenFile:)``
    /// body: the store (a snapshot's downloads). A request that may stream to a file without
    /// one fails with ``HTTPError/io(path:errno:)`` (`EINVAL`) before its body is written.
    public var bodyFiles: (any BodyFileMaker)?
    /// The request body of a POST (nil: none).
    public var body: [UInt8]?
    /// The client's total byte rate, paid for as the body arrives (``ByteRateLimiter``); nil: none.
    public var byteRate: ByteRateLimiter?
    /// Called once, on the engine's thread, when the server has the request: as libcurl sends
    /// it on a connection that was up, or when the response's headers arrive on one it opened
    /// (the server reads it only after the handshake). A paced host's next request counts its
    /// interval from then (``HostThrottle/sent(host:port:ticket:)``). Nil: nobody asks.
    public var onSent: (@Sendable () -> Void)?
    /// Record the exchange as it went over the wire (``HTTPCapture``), for an archive: the
    /// engine then receives bodies undecoded, keeps them, and decodes them itself. The capture
    /// goes to the options' recorder, or, without one, into ``HTTPResponse/capture``.
    public var capture: CaptureOptions?

    public init(
        url: String,
        method: Method = .get,
        headers: [(name: String, value: String)] = [],
        ifNoneMatch: String? = nil,
        ifModifiedSince: String? = nil,
        destination: BodyDestination = .memory,
        maxBodyBytes: Int64? = 256 * 1024 * 1024,
        acceptCompression: Bool = true,
        maxDecompressionRatio: Double = 200,
        timeouts: Timeouts = Timeouts(),
        userAgent: String = HTTPRequest.defaultUserAgent
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.destination = destination
        self.maxBodyBytes = maxBodyBytes
        self.acceptCompression = acceptCompression
        self.maxDecompressionRatio = maxDecompressionRatio
        self.timeouts = timeouts
        self.userAgent = userAgent
    }

    public static let defaultUserAgent = "mtls-mirror/\(MirrorVersion.string)"
}

/// The tool's version, shown by `--version` and in the User-Agent.
public enum MirrorVersion {
    public static let string = "0.1.0"
}
