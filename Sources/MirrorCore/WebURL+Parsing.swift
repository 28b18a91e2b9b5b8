// The byte-level parser behind `WebURL.parse`: preprocessing, scheme, authority, and the
// percent-encoding normalisation of path, query and fragment.

extension WebURL {
    /// Trims and cleans input the way browsers do, then checks length and control characters.
    ///
    /// Leading/trailing C0 controls and spaces are trimmed, and tab, LF and CR are removed
    /// anywhere (WHATWG URL Standard, basic URL parser, first steps).
    /// - Throws: ``ParseError/tooLong(length:limit:)``, ``ParseError/controlCharacter(offset:)``.
    static func preprocess(_ input: String, maximumLength: Int) throws(ParseError) -> [UInt8] {
        let raw = input.utf8
        guard raw.count <= maximumLength else {
            throw .tooLong(length: raw.count, limit: maximumLength)
        }
        // Tabs and newlines removed, leading and trailing C0 controls and spaces trimmed, in
        // one buffer.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        for byte in raw where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if bytes.isEmpty, byte <= 0x20 { continue }
            bytes.append(byte)
        }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        if let offset = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .controlCharacter(offset: offset)
        }
        return bytes
    }

    /// The length of a leading `scheme:` (scheme characters only, excluding the colon), or
    /// `nil` when the bytes do not start with one.
    static func schemeLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = bytes.first, ASCII.isAlpha(first) else { return nil }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index - bytes.startIndex }
            guard ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
            index += 1
        }
        return nil
    }

    /// Parses preprocessed bytes as an absolute http(s) URL and normalises it.
    /// - Throws: any ``ParseError`` except `controlCharacter`.
    static func parseAbsolute(_ bytes: [UInt8], maximumLength: Int) throws(ParseError) -> WebURL {
        guard bytes.count <= maximumLength else {
            throw .tooLong(length: bytes.count, limit: maximumLength)
        }
        guard let schemeCount = schemeLength(bytes[...]) else { throw .missingScheme }
        let scheme = String(decoding: bytes[0..<schemeCount].map(ASCII.lowercased), as: UTF8.self)
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }

        // Special schemes ignore any number of slashes and backslashes before the authority.
        var index = schemeCount + 1
        while index < bytes.count, ASCII.isSlash(bytes[index]) { index += 1 }
        let authorityStart = index
        while index < bytes.count, !ASCII.endsAuthority(bytes[index]) { index += 1 }
        let (host, port) = try parseAuthority(bytes[authorityStart..<index], scheme: scheme)

        let (path, query, fragment) = parsePathQueryFragment(bytes[index...])
        return WebURL(scheme: scheme, host: host, port: port, path: path, query: query, fragment: fragment)
    }

    /// Normalises what follows the authority: the path (slashes for backslashes, percent-encoding,
    /// dot segments removed, `/` when empty), the query and the fragment (`nil` when empty).
    static func parsePathQueryFragment(
        _ bytes: ArraySlice<UInt8>
    ) -> (path: String, query: String?, fragment: String?) {
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
            index += 1
        }
        let rawPath = bytes[bytes.startIndex..<index]
        var path: String
        if rawPath.contains(UInt8(ascii: "\\")) {
            let slashed = rawPath.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 }
            path = removeDotSegments(normalizePercentEncoding(slashed[...], allowed: ASCII.isPathCharacter))
        } else {
            path = removeDotSegments(normalizePercentEncoding(rawPath, allowed: ASCII.isPathCharacter))
        }
        if path.isEmpty { path = "/" }

        var query: String?
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "?") {
            let queryStart = index + 1
            index = queryStart
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "#") { index += 1 }
            let text = normalizePercentEncoding(bytes[queryStart..<index], allowed: ASCII.isQueryCharacter)
            query = text.isEmpty ? nil : text
        }
        var fragment: String?
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "#") {
            let text = normalizePercentEncoding(bytes[(index + 1)...], allowed: ASCII.isQueryCharacter)
            fragment = text.isEmpty ? nil : text
        }
        return (path, query, fragment)
    }

    /// Splits `host[:port]`, validating and normalising both.
    /// - Throws: ``ParseError/userInfoNotSupported(host:)``, ``ParseError/emptyHost``,
    ///   ``ParseError/invalidHost(_:)``, ``ParseError/invalidPort(_:)``.
    static func parseAuthority(
        _ authority: ArraySlice<UInt8>, scheme: String
    ) throws(ParseError) -> (host: String, port: Int?) {
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            throw .userInfoNotSupported(host: String(decoding: authority[(at + 1)...], as: UTF8.self))
        }
        var hostBytes = authority
        var portBytes: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw .invalidHost(String(decoding: authority, as: UTF8.self))
            }
            hostBytes = authority[authority.startIndex...close]
            let rest = authority[(close + 1)...]
            if let colon = rest.first {
                guard colon == UInt8(ascii: ":") else {
                    throw .invalidHost(String(decoding: authority, as: UTF8.self))
                }
                portBytes = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            hostBytes = authority[..<colon]
            portBytes = authority[(colon + 1)...]
        }
        let host = try normalizeHost(hostBytes)
        var port: Int?
        if let portBytes, !portBytes.isEmpty {
            let text = String(decoding: portBytes, as: UTF8.self)
            guard portBytes.count <= 5, portBytes.allSatisfy(ASCII.isDigit), let value = Int(text),
                  value <= 65535
            else { throw .invalidPort(text) }
            port = value == defaultPort(forScheme: scheme) ? nil : value
        }
        return (host, port)
    }

    /// Validates a host and returns it lower-cased (IPv6 literals keep their brackets).
    /// - Throws: ``ParseError/emptyHost``, ``ParseError/invalidHost(_:)``.
    static func normalizeHost(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> String {
        guard !bytes.isEmpty else { throw .emptyHost }
        // Most hosts are lower-case ASCII names or addresses already: checked in one pass,
        // copied once. The general way gives the same for them (a test compares the two).
        if bytes.allSatisfy({ !ASCII.isForbiddenInHost($0) && $0 < 0x80 && !(0x41...0x5A).contains($0) }),
           !bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return try normalizeHostGenerally(bytes)
    }

    /// ``normalizeHost(_:)`` for any host: IPv6 literals, percent-encoding, upper case,
    /// non-ASCII.
    static func normalizeHostGenerally(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> String {
        guard !bytes.isEmpty else { throw .emptyHost }
        let shown = String(decoding: bytes, as: UTF8.self)
        if bytes.first == UInt8(ascii: "[") {
            let inner = bytes.dropFirst().dropLast().map(ASCII.lowercased)
            let colons = inner.filter { $0 == UInt8(ascii: ":") }.count
            let valid = inner.allSatisfy { ASCII.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
            guard valid, colons >= 2, colons <= 7 else { throw .invalidHost(shown) }
            return "[" + String(decoding: inner, as: UTF8.self) + "]"
        }
        // Hosts are percent-decoded, as in the WHATWG host parser.
        let decoded = percentDecode(bytes)
        guard !decoded.isEmpty else { throw .emptyHost }
        guard decoded.allSatisfy({ !ASCII.isForbiddenInHost($0) }),
              !decoded.allSatisfy({ $0 == UInt8(ascii: ".") })
        else { throw .invalidHost(shown) }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .invalidHost(shown) }
        if decoded.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: decoded.map(ASCII.lowercased), as: UTF8.self)
        }
        return text.lowercased()
    }

    /// Decodes every valid `%XX` triplet; other bytes are kept.
    static func percentDecode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
               let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    /// The fragment a reference's raw fragment text (after its `#`) gives a resolved URL, as
    /// ``resolving(_:maximumLength:)`` normalises it: `nil` when empty. For text free of
    /// spaces and control characters (the resolution removes and rejects those first).
    public static func normalizedFragment(_ raw: Substring) -> String? {
        if raw.isEmpty { return nil }
        // The usual fragment needs no change: no byte array on the way.
        if isNormalised(raw.utf8, allowed: ASCII.isQueryCharacter) { return String(raw) }
        let text = normalizePercentEncoding(ArraySlice(raw.utf8), allowed: ASCII.isQueryCharacter)
        return text.isEmpty ? nil : text
    }

    /// Whether ``normalizePercentEncoding(_:allowed:)`` would return `bytes` as they are: no `%`,
    /// nothing outside `allowed`.
    @inline(__always)
    static func isNormalised<Bytes: Sequence<UInt8>>(_ bytes: Bytes, allowed: (UInt8) -> Bool) -> Bool {
        bytes.allSatisfy { $0 != UInt8(ascii: "%") && allowed($0) }
    }

    /// Normalises percent-encoding (RFC 3986 §6.2.2): upper-case hex, encoded unreserved
    /// characters decoded, characters outside `allowed` encoded, a stray `%` encoded as `%25`.
    static func normalizePercentEncoding(
        _ bytes: ArraySlice<UInt8>, allowed: (UInt8) -> Bool
    ) -> String {
        // Most values need no change: one pass to check, one copy.
        if isNormalised(bytes, allowed: allowed) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.endIndex,
                   let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2]) {
                    let value = high << 4 | low
                    if ASCII.isUnreserved(value) {
                        out.append(value)
                    } else {
                        ASCII.appendPercentEncoded(value, to: &out)
                    }
                    index += 3
                    continue
                }
                ASCII.appendPercentEncoded(byte, to: &out)
            } else if allowed(byte) {
                out.append(byte)
            } else {
                ASCII.appendPercentEncoded(byte, to: &out)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Removes `.` and `..` segments from an absolute path (RFC 3986 §5.2.4). A dot segment
    /// at the end leaves a trailing slash; `..` never climbs above the root.
    static func removeDotSegments(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        // Fast path: no segment starts with a dot, so there is no dot segment to remove.
        var previous: UInt8 = 0
        var dotSegmentPossible = false
        for byte in path.utf8 {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: ".") { dotSegmentPossible = true; break }
            previous = byte
        }
        if !dotSegmentPossible { return path }
        // The output is built as "/seg/seg…"; `..` truncates it back to its last slash.
        let input = Array(path.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var start = 1  // after the leading slash
        while true {
            let end = input[start...].firstIndex(of: UInt8(ascii: "/")) ?? input.count
            let isLast = end == input.count
            let length = end - start
            if length == 2, input[start] == UInt8(ascii: "."), input[start + 1] == UInt8(ascii: ".") {
                if let slash = output.lastIndex(of: UInt8(ascii: "/")) { output.removeSubrange(slash...) }
                if isLast { output.append(UInt8(ascii: "/")) }
            } else if length == 1, input[start] == UInt8(ascii: ".") {
                if isLast { output.append(UInt8(ascii: "/")) }
            } else {
                output.append(UInt8(ascii: "/"))
                output += input[start..<end]
            }
            if isLast { break }
            start = end + 1
        }
        return output.isEmpty ? "/" : String(decoding: output, as: UTF8.self)
    }
}
