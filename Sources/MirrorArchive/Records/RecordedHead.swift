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
    /// The `Content-Type` and `Content-Encoding` values, as the index and the writer need them.
    public let contentType: String?
    public let contentEncoding: String?

    /// What a redacted value is replaced with.
    public static let redactedValue = "REDACTED"
    /// The name a `Transfer-Encoding` field is given.
    public static let renamedTransferEncoding = "X-Archive-Orig-Transfer-Encoding"

    /// - Parameters:
    ///   - raw: the head as captured (request or status line, header lines, the empty line).
    ///   - redacted: lower-case field names whose values are replaced.
    public init(raw: [UInt8], redacted: Set<String>) {
        // Runs twice per exchange on the archive's writer thread: bytes only, no strings but the
        // two values kept.
        let names = redacted.map { Array($0.utf8) }
        var output: [UInt8] = []
        output.reserveCapacity(raw.count + 32)
        var status = 0
        var contentType: String?
        var contentEncoding: String?
        raw.withUnsafeBufferPointer { raw in
            var lineStart = 0
            var first = true
            while lineStart < raw.count {
                var newline = lineStart
                while newline < raw.count, raw[newline] != 0x0A { newline += 1 }
                var contentEnd = newline
                if contentEnd > lineStart, raw[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                let line = UnsafeBufferPointer(rebasing: raw[lineStart..<contentEnd])
                if line.isEmpty { break }  // the empty line ends the head
                if first {
                    first = false
                    status = Self.appendStartLine(line, to: &output)
                } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                    let name = UnsafeBufferPointer(rebasing: line[..<colon])
                    if names.contains(where: { Self.equalIgnoringCase(name, $0) }) {
                        output.append(contentsOf: name)
                        output.append(contentsOf: ": \(Self.redactedValue)".utf8)
                    } else if Self.equalIgnoringCase(name, Self.transferEncoding) {
                        output.append(contentsOf: Self.renamedTransferEncoding.utf8)
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: line[colon...]))
                    } else {
                        output.append(contentsOf: line)
                        if Self.equalIgnoringCase(name, Self.contentTypeName) {
                            contentType = Self.value(UnsafeBufferPointer(rebasing: line[(colon + 1)...]))
                        } else if Self.equalIgnoringCase(name, Self.contentEncodingName) {
                            contentEncoding = Self.value(UnsafeBufferPointer(rebasing: line[(colon + 1)...]))
                        }
                    }
                } else {
                    output.append(contentsOf: line)
                }
                output.append(contentsOf: [0x0D, 0x0A])
                lineStart = newline + 1
            }
        }
        output.append(contentsOf: [0x0D, 0x0A])
        bytes = output
        self.status = status
        self.contentType = contentType
        self.contentEncoding = contentEncoding
    }

    private static let transferEncoding = Array("transfer-encoding".utf8)
    private static let contentTypeName = Array("content-type".utf8)
    private static let contentEncodingName = Array("content-encoding".utf8)

    /// ASCII case-insensitive equality of a field name (trailing spaces ignored) and a lower-case name.
    static func equalIgnoringCase(_ name: UnsafeBufferPointer<UInt8>, _ lower: [UInt8]) -> Bool {
        var count = name.count
        while count > 0, name[count - 1] == 0x20 || name[count - 1] == 0x09 { count -= 1 }
        guard count == lower.count else { return false }
        for index in 0..<count {
            let byte = name[index]
            let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            if folded != lower[index] { return false }
        }
        return true
    }

    private static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var lower = 0, upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
    }

    /// Appends a status line `HTTP/x y reason` or a request line `METHOD target HTTP/x`, with
    /// HTTP/2 and 3 written as HTTP/1.1; returns the status (0 for a request line).
    static func appendStartLine(_ line: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Int {
        let http1 = Array("HTTP/1.".utf8)
        if line.count >= 5, line.starts(with: Array("HTTP/".utf8)) {
            var index = 5
            while index < line.count, line[index] != 0x20 { index += 1 }
            var digits = index
            while digits < line.count, line[digits] == 0x20 { digits += 1 }
            var code = 0
            var end = digits
            while end < line.count, (0x30...0x39).contains(line[end]) {
                code = code * 10 + Int(line[end] - 0x30)
                end += 1
            }
            if line.starts(with: http1), index == 8 {
                output.append(contentsOf: line)
                return code
            }
            var reasonStart = end
            while reasonStart < line.count, line[reasonStart] == 0x20 { reasonStart += 1 }
            var reasonEnd = line.count
            while reasonEnd > reasonStart, line[reasonEnd - 1] == 0x20 { reasonEnd -= 1 }
            output.append(contentsOf: "HTTP/1.1 \(code) ".utf8)
            if reasonEnd > reasonStart {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: line[reasonStart..<reasonEnd]))
            } else {
                output.append(contentsOf: HTTPReason.phrase(code).utf8)
            }
            return code
        }
        // A request line ending in a version other than 1.0/1.1.
        if let space = line.lastIndex(of: 0x20), line.count - space > 5,
           UnsafeBufferPointer(rebasing: line[(space + 1)...]).starts(with: Array("HTTP/".utf8)),
           !(UnsafeBufferPointer(rebasing: line[(space + 1)...]).starts(with: http1) && line.count - space - 1 == 8) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<space]))
            output.append(contentsOf: " HTTP/1.1".utf8)
            return 0
        }
        output.append(contentsOf: line)
        return 0
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
