/// An HTTP head (a request or status line and header lines) as it goes into a record: the
/// bytes as they went over the wire, with the few changes replay tools and privacy need.
///
/// - **HTTP/2** heads come from libcurl as `HTTP/2 200` (no reason phrase) and
///   `GET /a HTTP/2`. warcio and pywb parse only `HTTP/1.0` and `HTTP/1.1` (pywb refuses any
///   other status line), so the line is written as HTTP/1.1 with the standard reason phrase,
///   as Browsertrix does; the record's `WARC-Protocol: h2` says how it really travelled.
/// - **Transfer framing**: libcurl removes HTTP/1.1 chunking, so the payload is the de-chunked
///   body. A `Transfer-Encoding` field would make a reader de-chunk it again, so it is renamed
///   `X-Archive-Orig-Transfer-Encoding` (the prefix pywb gives original headers).
/// - **Redaction**: the value of each field named in `redacted` (compared without case) is
///   replaced with `REDACTED`, so credentials and session cookies never reach the archive.
///
/// Every other byte is kept: names keep their case, values their spacing, lines their order.
public struct RecordedHead: Sendable, Equatable {
    /// The head as it goes into the record, ending with the empty line.
    public let bytes: [UInt8]
    /// The status code (responses) or 0.
    public let status: Int
    /// The fields, parsed, after redaction.
    public let fields: WARCFields

    /// What a redacted value is replaced with.
    public static let redactedValue = "REDACTED"
    /// The name a `Transfer-Encoding` field is given.
    public static let renamedTransferEncoding = "X-Archive-Orig-Transfer-Encoding"

    /// - Parameters:
    ///   - raw: the head as captured (request or status line, header lines, the empty line).
    ///   - redacted: lower-case field names whose values are replaced.
    public init(raw: [UInt8], redacted: Set<String>) {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count + 32)
        var status = 0
        var lineStart = 0
        var first = true
        while lineStart < raw.count {
            let newline = raw[lineStart...].firstIndex(of: 0x0A)
            let next = newline.map { $0 + 1 } ?? raw.count
            var contentEnd = newline ?? raw.count
            if contentEnd > lineStart, raw[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let line = raw[lineStart..<contentEnd]
            if line.isEmpty { break }  // the empty line ends the head
            if first {
                first = false
                let (rewritten, code) = Self.startLine(line)
                status = code
                output += rewritten
            } else {
                output += Self.fieldLine(line, redacted: redacted)
            }
            output += [0x0D, 0x0A]
            lineStart = next
        }
        output += [0x0D, 0x0A]
        bytes = output
        self.status = status
        fields = WARCFields.parse(output[Self.firstLineEnd(output)...])
    }

    private static func firstLineEnd(_ bytes: [UInt8]) -> Int {
        (bytes.firstIndex(of: 0x0A).map { $0 + 1 }) ?? bytes.count
    }

    /// A status line `HTTP/x y reason` or a request line `METHOD target HTTP/x`, with HTTP/2 and 3
    /// written as HTTP/1.1.
    static func startLine(_ line: ArraySlice<UInt8>) -> ([UInt8], Int) {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        if let version = parts.first, version.hasPrefix("HTTP/") {
            let code = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            if version == "HTTP/1.1" || version == "HTTP/1.0" { return (Array(line), code) }
            let reason = parts.count > 2 ? parts[2...].joined(separator: " ") : HTTPReason.phrase(code)
            return (Array("HTTP/1.1 \(code) \(reason.isEmpty ? HTTPReason.phrase(code) : reason)".utf8), code)
        }
        if parts.count == 3, parts[2].hasPrefix("HTTP/"), parts[2] != "HTTP/1.1", parts[2] != "HTTP/1.0" {
            return (Array("\(parts[0]) \(parts[1]) HTTP/1.1".utf8), 0)
        }
        return (Array(line), 0)
    }

    private static func fieldLine(_ line: ArraySlice<UInt8>, redacted: Set<String>) -> [UInt8] {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return Array(line) }
        let name = String(decoding: line[..<colon], as: UTF8.self).trimmingSpaces
        let lower = name.lowercased()
        if redacted.contains(lower) {
            return Array(line[..<colon]) + Array(": \(redactedValue)".utf8)
        }
        if lower == "transfer-encoding" {
            return Array(renamedTransferEncoding.utf8) + Array(line[colon...])
        }
        return Array(line)
    }
}

/// Standard reason phrases (RFC 9110 §15), for status lines that arrived without one.
enum HTTPReason {
    static func phrase(_ code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 421: "Misdirected Request"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Unknown"
        }
    }
}
