import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP exchange as it went over the wire, for an archive record: the request header block
/// as libcurl sent it, the response's status line and header lines as they arrived, and the
/// payload as the server sent it (still content-coded: a gzip or br body stays compressed).
///
/// The engine makes one when the request carries ``CaptureOptions`` (``HTTPRequest/capture``).
/// It stands for every kind of end: a complete response, and one that a limit or the network cut
/// short (``truncation`` says why), so that an archive records what happened.
///
/// Transfer framing is not part of it: libcurl removes HTTP/1.1 chunking, so ``payload`` is the
/// message body after transfer decoding and before content decoding, which is what WARC calls
/// the payload (the entity-body of RFC 2616).
public struct HTTPCapture: Sendable {
    /// Why a payload is incomplete (WARC 1.1 `WARC-Truncated`).
    public enum Truncation: String, Sendable, Equatable {
        /// A size limit was reached (``HTTPRequest/maxBodyBytes``).
        case length
        /// A time limit was reached.
        case time
        /// The connection ended before the body did.
        case disconnect
        /// Anything else, such as a decompression-bomb guard.
        case unspecified
    }

    /// The request URL (one hop: redirects are separate exchanges).
    public var url: String
    /// `GET` or `HEAD`.
    public var method: String
    /// When the request left (the exchange's capture time).
    public var date: Date
    /// The request header block as sent, request line first, ending with the empty line. Over
    /// HTTP/2 libcurl shows it in HTTP/1.1 form (`GET /a HTTP/2`, `Host:` for `:authority`).
    public var requestHead: [UInt8]
    /// The request's body as sent (empty for GET and HEAD); the request record's payload.
    public var requestBody: [UInt8] = []
    /// The final response's status line and header lines, each as received and ending in CRLF,
    /// then the empty line. Over HTTP/2 libcurl shows `HTTP/2 200` and lower-case names. Empty
    /// when no response began.
    public var responseHead: [UInt8]
    /// The body as received (content-coded).
    public var payload: CapturedPayload
    /// Lower-case hex SHA-256 of ``payload``.
    public var payloadSHA256: String
    /// The response status; 0 when no response began.
    public var status: Int
    /// "1.0", "1.1", "2".
    public var httpVersion: String
    /// The server's address (libcurl's CURLINFO_PRIMARY_IP).
    public var remoteIP: String?
    /// The TLS version and cipher of the connection, when it was TLS.
    public var tlsVersion: String?
    public var cipher: String?
    /// Set when ``payload`` is not the whole body.
    public var truncation: Truncation?

    /// Creates a capture (the engine makes them; tests and other producers, such as a browser
    /// whose requests the engine answered, may build their own).
    public init(
        url: String, method: String = "GET", date: Date, requestHead: [UInt8], responseHead: [UInt8],
        payload: CapturedPayload, payloadSHA256: String, status: Int, httpVersion: String,
        remoteIP: String? = nil, tlsVersion: String? = nil, cipher: String? = nil, truncation: Truncation? = nil,
        requestBody: [UInt8] = []
    ) {
        self.url = url
        self.method = method
        self.date = date
        self.requestHead = requestHead
        self.responseHead = responseHead
        self.payload = payload
        self.payloadSHA256 = payloadSHA256
        self.status = status
        self.httpVersion = httpVersion
        self.remoteIP = remoteIP
        self.tlsVersion = tlsVersion
        self.cipher = cipher
        self.truncation = truncation
        self.requestBody = requestBody
    }
}

/// Where a captured payload is: in memory, or spooled to a file of its own.
public enum CapturedPayload: Sendable, Equatable {
    /// The whole payload.
    case memory([UInt8])
    /// A file (0600) that holds exactly `length` bytes. Whoever receives the capture owns the
    /// file and removes it when done (an ``ExchangeRecorder`` does so after writing its record).
    case file(path: String, length: Int64)

    /// Removes the spool file, if the payload is in one.
    public func discardSpoolFile() {
        if case .file(let path, _) = self { unlink(path) }
    }

    /// The payload's length in bytes.
    public var count: Int64 {
        switch self {
        case .memory(let bytes): Int64(bytes.count)
        case .file(_, let length): length
        }
    }
}
