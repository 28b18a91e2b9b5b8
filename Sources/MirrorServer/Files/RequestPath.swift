/// A request path decoded and normalised into segments that cannot leave the served root.
///
/// The pure half of path confinement (``SnapshotDirectory`` is the I/O half). The raw path is
/// split at `/` first and each segment is percent-decoded exactly once, so:
/// - `%2F` inside a segment is refused (it would smuggle a separator past the split),
/// - `%252e%252e` decodes to the literal name `%2e%2e` (no file has it: 404),
/// - `%2e%2e` decodes to `..`, a dot segment, as RFC 3986 §6.2.2.2 says it is.
///
/// Then empty segments (`//`) and `.` are dropped and `..` removes the previous segment; a
/// `..` with nothing left to remove would climb above the root and is refused. Decoded bytes
/// must be valid UTF-8 (an overlong `%c0%ae` is not) and contain no NUL, control character or
/// backslash.
public struct RequestPath: Sendable, Equatable {
    /// The decoded segments, none empty, `.` or `..`.
    public var segments: [String]
    /// Whether the path ended with `/` (or is the root): a directory was asked for.
    public var trailingSlash: Bool

    /// Creates a path from segments.
    /// - Parameters:
    ///   - segments: decoded, normalised segments.
    ///   - trailingSlash: whether a directory was asked for.
    public init(segments: [String], trailingSlash: Bool) {
        self.segments = segments
        self.trailingSlash = trailingSlash
    }

    /// Why a raw path was refused; every case is answered 400.
    public enum Rejection: Error, Sendable, Equatable {
        /// The path does not start with `/`.
        case notAbsolute
        /// A `%` not followed by two hex digits.
        case invalidPercentEncoding(segment: String)
        /// A decoded NUL or other control byte.
        case controlCharacter(segment: String)
        /// A `%2F` (encoded `/`) inside a segment.
        case encodedSlash(segment: String)
        /// A backslash, raw or encoded.
        case backslash(segment: String)
        /// Decoded bytes that are not valid UTF-8 (includes overlong forms).
        case invalidUTF8(segment: String)
        /// A `..` that would climb above the root.
        case escapesRoot
    }

    /// Decodes and normalises a raw request path.
    /// - Parameter raw: the path part of the request target, still percent-encoded.
    /// - Returns: the confined path, or why it was refused.
    public static func parse(_ raw: String) -> Result<RequestPath, Rejection> {
        // Compare bytes: `hasPrefix` compares Characters, and `/` followed by a combining
        // mark is one Character that is not "/".
        guard raw.utf8.first == UInt8(ascii: "/") else { return .failure(.notAbsolute) }
        var segments: [String] = []
        var endsInDirectory = true
        let bytes = raw.utf8
        var start = bytes.index(after: bytes.startIndex)
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            let decoded: String
            switch decode(raw[start..<end]) {
            case .success(let text): decoded = text
            case .failure(let rejection): return .failure(rejection)
            }
            switch decoded {
            case "", ".":
                endsInDirectory = true
            case "..":
                guard !segments.isEmpty else { return .failure(.escapesRoot) }
                segments.removeLast()
                endsInDirectory = true
            default:
                segments.append(decoded)
                endsInDirectory = false
            }
            if end == bytes.endIndex { break }
            start = bytes.index(after: end)
        }
        return .success(RequestPath(segments: segments, trailingSlash: endsInDirectory))
    }

    /// Decodes one raw segment (the text between two `/`).
    private static func decode(_ segment: Substring) -> Result<String, Rejection> {
        let raw = segment.utf8
        guard raw.contains(UInt8(ascii: "%")) else {
            // Nothing to decode: the bytes are the segment's, already valid UTF-8.
            for byte in raw {
                if byte < 0x20 || byte == 0x7F { return .failure(.controlCharacter(segment: String(segment))) }
                if byte == UInt8(ascii: "\\") { return .failure(.backslash(segment: String(segment))) }
            }
            return .success(String(segment))
        }
        let label = String(segment)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            index = raw.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard index < raw.endIndex, let high = hexValue(raw[index]) else { return .failure(.invalidPercentEncoding(segment: label)) }
            index = raw.index(after: index)
            guard index < raw.endIndex, let low = hexValue(raw[index]) else { return .failure(.invalidPercentEncoding(segment: label)) }
            index = raw.index(after: index)
            let decoded = high << 4 | low
            if decoded == UInt8(ascii: "/") { return .failure(.encodedSlash(segment: label)) }
            bytes.append(decoded)
        }
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F { return .failure(.controlCharacter(segment: label)) }
            if byte == UInt8(ascii: "\\") { return .failure(.backslash(segment: label)) }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidUTF8(segment: label)) }
        return .success(text)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The segments joined with `/`, relative to the root (`""` for the root).
    public var relativePath: String { segments.joined(separator: "/") }

    /// The path percent-encoded again for a `Location` header, with a leading `/`.
    /// - Parameter trailingSlash: whether to end with `/`.
    public func encoded(trailingSlash: Bool) -> String {
        var out = "/" + segments.map(Self.percentEncode).joined(separator: "/")
        if trailingSlash, !segments.isEmpty { out += "/" }
        return out
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters and a few safe sub-delims.
    static func percentEncode(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                 UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
                 UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
