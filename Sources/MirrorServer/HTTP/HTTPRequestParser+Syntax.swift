/// Byte classes of RFC 9110/9112 used by the parser.
enum HTTPSyntax {
    /// `tchar`: the characters of a token (RFC 9110 §5.6.2).
    static let tokenCharacters: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for byte in "!#$%&'*+-.^_`|~".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Bytes a `Host` value may not contain (whitespace, delimiters of other URL parts).
    static let forbiddenInHost: Set<UInt8> = Set(" \t,/\\@?#".utf8)

    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { tokenCharacters[Int($0)] }
    }
}

extension HTTPRequestParser {
    /// Parses `method SP request-target SP HTTP-version`.
    func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<RequestLine, HTTPParseError> {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[1].first == UInt8(ascii: "/") {
            return .failure(.missingVersion)
        }
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            return .failure(.malformedRequestLine(reason: "expected method, target and version separated by single spaces"))
        }
        guard HTTPSyntax.isToken(parts[0]) else { return .failure(.invalidMethod) }
        let method = String(decoding: parts[0], as: UTF8.self)
        let version: HTTPVersion
        switch parseVersion(parts[2]) {
        case .success(let parsed): version = parsed
        case .failure(let error): return .failure(error)
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(.invalidTarget(reason: "bytes outside visible ASCII"))
        }
        guard !parts[1].contains(UInt8(ascii: "#")) else { return .failure(.invalidTarget(reason: "a fragment")) }
        let target = String(decoding: parts[1], as: UTF8.self)
        return parseTarget(target, method: method).map { path, query in
            RequestLine(method: method, target: target, path: path, query: query, version: version)
        }
    }

    /// `HTTP/1.0` and `HTTP/1.1`; other well-formed versions fail with 505.
    func parseVersion(_ bytes: ArraySlice<UInt8>) -> Result<HTTPVersion, HTTPParseError> {
        let text = Array(bytes)
        guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), text[6] == UInt8(ascii: "."),
              (0x30...0x39).contains(text[5]), (0x30...0x39).contains(text[7])
        else { return .failure(.malformedRequestLine(reason: "invalid protocol version")) }
        let version = HTTPVersion(major: Int(text[5] - 0x30), minor: Int(text[7] - 0x30))
        guard version == .http1_0 || version == .http1_1 else {
            return .failure(.unsupportedVersion(version: String(decoding: text, as: UTF8.self)))
        }
        return .success(version)
    }

    /// Splits a target into raw path and query, per its form (RFC 9112 §3.2).
    func parseTarget(_ target: String, method: String) -> Result<(String, String?), HTTPParseError> {
        if target.hasPrefix("/") { return .success(Self.splitQuery(Substring(target))) }
        if target == "*" {
            return method == "OPTIONS" ? .success(("*", nil)) : .failure(.invalidTarget(reason: "* is only for OPTIONS"))
        }
        if method == "CONNECT" { return .success((target, nil)) }
        let lower = target.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            guard authorityEnd > rest.startIndex else { return .failure(.invalidTarget(reason: "no authority")) }
            let remainder = rest[authorityEnd...]
            if remainder.isEmpty { return .success(("/", nil)) }
            if remainder.first == "?" { return .success(("/", String(remainder.dropFirst()))) }
            return .success(Self.splitQuery(remainder))
        }
        return .failure(.invalidTarget(reason: "neither origin-form nor absolute-form"))
    }

    static func splitQuery(_ text: Substring) -> (String, String?) {
        guard let mark = text.firstIndex(of: "?") else { return (String(text), nil) }
        return (String(text[..<mark]), String(text[text.index(after: mark)...]))
    }

    /// Parses `field-name ":" OWS field-value OWS`.
    func parseHeader(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), HTTPParseError> {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
            return .failure(.invalidHeaderName(line: String(decoding: line, as: UTF8.self)))
        }
        let nameBytes = line[line.startIndex..<colon]
        let name = String(decoding: nameBytes, as: UTF8.self)
        if let last = nameBytes.last, last == 0x20 || last == 0x09 { return .failure(.whitespaceBeforeColon(name: name)) }
        guard HTTPSyntax.isToken(nameBytes) else { return .failure(.invalidHeaderName(line: String(decoding: line, as: UTF8.self))) }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(.invalidHeaderValue(name: name))
        }
        return .success((name, String(decoding: value, as: UTF8.self)))
    }
}
