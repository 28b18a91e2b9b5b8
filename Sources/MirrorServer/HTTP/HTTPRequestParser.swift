#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``HTTPRequestParser/next()`` found in the bytes fed so far.
public enum HTTPParserEvent: Sendable, Equatable {
    /// A complete request head (any small body has been read into it).
    case request(HTTPRequestHead)
    /// The bytes are not an acceptable request: answer `error.status` and close.
    case failure(HTTPParseError)
}

/// An HTTP/1.1 request parser as a value-type state machine: feed it bytes, ask for events.
///
/// It does no I/O. The connection feeds whatever the socket returned (``feed(_:)``) and then
/// calls ``next()`` until it returns `nil`; several pipelined requests in one buffer come out
/// in order, and a request split across any number of reads (even one byte at a time) comes
/// out once complete.
///
/// Decisions (RFC 9112 leaves these to the server):
/// - **Bare LF** is tolerated as a line end (RFC 9112 §2.2 allows it; nginx does the same).
///   A CR that is not followed by LF, and any NUL, is rejected (400).
/// - **Absolute-form targets** (`GET http://host/p HTTP/1.1`) are accepted as RFC 9112 §3.2.2
///   requires; only the path and query are used (this server serves one mirror whatever the
///   authority says). `*` is accepted only with OPTIONS and authority-form only with CONNECT,
///   so that they can be answered 405.
/// - **Bodies**: GET and HEAD must not carry one (400). Other methods may carry a
///   `Content-Length` body up to ``HTTPParserLimits/discardableBodySize``, which is read into
///   ``HTTPRequestHead/body`` so that the connection stays usable; a larger or chunked body makes the
///   request the connection's last (``HTTPRequestHead/keepAlive`` false) and nothing after it
///   is parsed.
/// - Up to 8 empty lines before a request line are ignored (RFC 9112 §2.2).
/// - After a ``HTTPParserEvent/failure(_:)`` or a request that ends the connection, the parser
///   produces nothing more.
public struct HTTPRequestParser: Sendable {
    enum State: Sendable {
        case requestLine
        case headers(RequestLine)
        case body(remaining: Int, head: HTTPRequestHead)
        case finished
        case failed
    }

    struct RequestLine: Sendable {
        var method: String
        var target: String
        var path: String
        var query: String?
        var version: HTTPVersion
    }

    /// The limits in force.
    public let limits: HTTPParserLimits
    private var state: State = .requestLine
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var scanIndex = 0
    private var headers = HTTPHeaders()
    private var headerBytes = 0
    private var emptyLines = 0

    /// Creates a parser.
    /// - Parameter limits: the size limits to enforce.
    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Appends bytes received from the client.
    /// - Parameter bytes: the bytes, in arrival order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes received from the client.
    /// - Parameter bytes: the bytes, in arrival order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Whether bytes of a request not yet complete are buffered (used for the header deadline).
    public var hasPartialRequest: Bool {
        switch state {
        case .requestLine: readIndex < buffer.count
        case .headers, .body: true
        case .finished, .failed: false
        }
    }

    /// Whether the parser will produce no more events (after a failure or a final request).
    public var isFinished: Bool {
        switch state {
        case .finished, .failed: true
        default: false
        }
    }

    /// Parses as far as the buffered bytes allow.
    /// - Returns: the next request or failure, or `nil` when more bytes are needed (or the
    ///   parser is finished).
    public mutating func next() -> HTTPParserEvent? {
        while true {
            switch state {
            case .finished, .failed:
                return nil
            case .body(let remaining, var head):
                let take = min(remaining, buffer.count - readIndex)
                head.body = (head.body ?? []) + buffer[readIndex..<(readIndex + take)]
                readIndex += take
                scanIndex = readIndex
                if take < remaining {
                    state = .body(remaining: remaining - take, head: head)
                    return nil
                }
                state = .requestLine
                return .request(head)
            case .requestLine, .headers:
                guard let lineFeed = findLineFeed() else {
                    scanIndex = buffer.count
                    return checkPartialLine()
                }
                var end = lineFeed
                if end > readIndex, buffer[end - 1] == 0x0D { end -= 1 }
                let line = readIndex..<end
                readIndex = lineFeed + 1
                scanIndex = readIndex
                if let event = consumeLine(line) { return event }
            }
        }
    }

    // MARK: Lines

    private func findLineFeed() -> Int? {
        guard scanIndex < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { pointer -> Int? in
            guard let base = pointer.baseAddress,
                  let hit = memchr(base + scanIndex, 0x0A, pointer.count - scanIndex)
            else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func checkPartialLine() -> HTTPParserEvent? {
        let pending = buffer.count - readIndex
        switch state {
        case .requestLine where pending > limits.requestLineLength + 1:
            return fail(.requestLineTooLong(limit: limits.requestLineLength))
        case .headers where headerBytes + pending > limits.headerSectionSize:
            return fail(.headerSectionTooLarge(limit: limits.headerSectionSize))
        default:
            return nil
        }
    }

    private mutating func consumeLine(_ line: Range<Int>) -> HTTPParserEvent? {
        let badByte = buffer.withUnsafeBufferPointer { bytes in
            UnsafeBufferPointer(rebasing: bytes[line]).contains { $0 == 0x0D || $0 == 0x00 }
        }
        if badByte { return fail(.invalidLineEnding) }
        switch state {
        case .requestLine:
            if line.isEmpty {
                emptyLines += 1
                return emptyLines > 8 ? fail(.malformedRequestLine(reason: "too many empty lines")) : nil
            }
            guard line.count <= limits.requestLineLength else {
                return fail(.requestLineTooLong(limit: limits.requestLineLength))
            }
            switch parseRequestLine(buffer[line]) {
            case .success(let requestLine):
                state = .headers(requestLine)
                headers = HTTPHeaders()
                headerBytes = 0
                return nil
            case .failure(let error):
                return fail(error)
            }
        case .headers(let requestLine):
            headerBytes += line.count + 2
            guard headerBytes <= limits.headerSectionSize else {
                return fail(.headerSectionTooLarge(limit: limits.headerSectionSize))
            }
            if line.isEmpty { return finishHead(requestLine) }
            if buffer[line.lowerBound] == 0x20 || buffer[line.lowerBound] == 0x09 {
                return fail(.obsoleteLineFolding)
            }
            guard headers.count < limits.headerCount else { return fail(.tooManyHeaders(limit: limits.headerCount)) }
            switch parseHeader(buffer[line]) {
            case .success(let field):
                headers.add(field.name, field.value)
                return nil
            case .failure(let error):
                return fail(error)
            }
        default:
            return nil
        }
    }

    private mutating func fail(_ error: HTTPParseError) -> HTTPParserEvent {
        state = .failed
        buffer = []
        readIndex = 0
        scanIndex = 0
        return .failure(error)
    }

    private mutating func compact() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            readIndex = 0
            scanIndex = 0
        } else if readIndex >= 16 * 1024 {
            buffer.removeFirst(readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
    }

    // MARK: End of the head

    private mutating func finishHead(_ line: RequestLine) -> HTTPParserEvent? {
        emptyLines = 0
        let framing = HeadFraming(headers)
        if framing.hostCount > 1 { return fail(.duplicateHost) }
        if let host = framing.host {
            if host.utf8.contains(where: HTTPSyntax.isForbiddenInHost) { return fail(.invalidHost(value: host)) }
        } else if line.version == .http1_1 {
            return fail(.missingHost)
        }
        var keepAlive: Bool
        if framing.connectionClose {
            keepAlive = false
        } else if line.version == .http1_0 {
            keepAlive = framing.connectionKeepAlive
        } else {
            keepAlive = true
        }
        var head = HTTPRequestHead(
            method: line.method, target: line.target, path: line.path, query: line.query,
            version: line.version, headers: headers, keepAlive: keepAlive)
        headers = HTTPHeaders()
        let bodyless = line.method == "GET" || line.method == "HEAD"
        let lengths = framing.contentLengths
        if framing.hasTransferEncoding {
            if !lengths.isEmpty { return fail(.conflictingFraming) }
            if bodyless { return fail(.bodyNotAllowed(method: line.method)) }
            head.keepAlive = false
            state = .finished
            return .request(head)
        }
        var length = 0
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
                  first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(first)
            else { return fail(.invalidContentLength(value: lengths.joined(separator: ","))) }
            length = value
        }
        if length > 0 {
            if bodyless { return fail(.bodyNotAllowed(method: line.method)) }
            if length <= limits.discardableBodySize {
                head.body = []
                state = .body(remaining: length, head: head)
                return nil
            }
            head.keepAlive = false
            state = .finished
            return .request(head)
        }
        state = keepAlive ? .requestLine : .finished
        return .request(head)
    }
}
