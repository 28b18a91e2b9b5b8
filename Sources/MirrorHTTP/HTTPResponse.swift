import Foundation
import MirrorTLS

/// Response header fields in arrival order, with case-insensitive lookup.
public struct HTTPHeaders: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    public mutating func append(name: String, value: String) { fields.append((name, value)) }

    /// Makes room for `count` fields (one allocation instead of one per doubling).
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// The first value of `name`, compared case-insensitively.
    public subscript(_ name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// ASCII case-insensitive equality of two field names (RFC 9110 §5.1: names are tokens,
    /// so no locale or Unicode folding applies; this runs for every header of every response).
    static func sameName(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x != y, x | 0x20 != y | 0x20 || !(0x61...0x7A).contains(x | 0x20) { return false }
            default: return false
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}

/// What the TLS layer saw on the connection that carried a response.
public struct TLSConnectionInfo: Sendable {
    public var version: String?
    public var cipher: String?
    public var alpn: String?
    /// The server's chain and host, when this connection's handshake was seen (not on a
    /// connection reused from an earlier transfer).
    public var serverTrust: ServerTrust?
    /// The evaluator that accepted the server.
    public var evaluatorName: String
    /// Whether a client certificate was configured for this connection.
    public var identitySent: Bool
}

/// A completed HTTP exchange (one hop; see ``FetchResult`` for redirects).
public struct HTTPResponse: Sendable {
    public var url: String
    public var status: Int
    public var headers: HTTPHeaders
    /// The decoded body, for `.memory` destinations and for error statuses.
    public var body: [UInt8]
    /// The file the body was streamed to, for `.file` destinations with status < 400.
    public var bodyFile: String?
    /// Decoded body bytes delivered.
    public var bodyBytes: Int64
    /// Body bytes on the wire (before content decoding).
    public var wireBytes: Int64
    /// Lower-case hex SHA-256 of the decoded body.
    public var sha256: String
    /// "1.1", "2" …
    public var httpVersion: String
    public var tls: TLSConnectionInfo?
    /// Seconds from start to end of the transfer.
    public var totalTime: Double
    /// Whether curl reused an open connection.
    public var reusedConnection: Bool
    /// The exchange as it went over the wire, when the request asked for a capture and named
    /// no recorder (``CaptureOptions/recorder``); the caller then owns a spooled payload file.
    public var capture: HTTPCapture? = nil

    /// The `Location` header for 3xx statuses.
    public var redirectLocation: String? {
        (300...399).contains(status) ? headers["Location"] : nil
    }

    /// The media type without parameters, lower-cased (e.g. `text/html`).
    public var mediaType: String? {
        headers["Content-Type"].map(Self.mediaType(of:))
    }

    /// The media type of a `Content-Type` value: without parameters, trimmed, lower-cased.
    public static func mediaType(of contentType: String) -> String {
        var bytes = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The body as text, for small error pages and diagnostics.
    public var bodyText: String { String(decoding: body.prefix(64 * 1024), as: UTF8.self) }
}
