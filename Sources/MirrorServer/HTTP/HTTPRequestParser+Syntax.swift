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

    /// Whether a `Host` value may not contain `byte` (whitespace, delimiters of other URL parts).
    static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","), UInt8(ascii: "/"), UInt8(ascii: "\\"),
             UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: "#"): true
        default: false
        }
    }

    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { tokenCharacters[Int($0)] }
    }
}

extension HTTPRequestParser {
    /// Parses `method SP request-target SP HTTP-version`.
    func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<RequestLine, HTTPParseError> {
        let malformed = HTTPParseError.malformedRequestLine(reason: "expected method, target and version separated by single spaces")
        guard let firstSpace = line.firstIndex(of: 0x20) else { return .failure(malformed) }
        let method = line[..<firstSpace]
        let afterMethod = line[(firstSpace + 1)...]
        guard let secondSpace = afterMethod.firstIndex(of: 0x20) else {
            if !method.isEmpty, afterMethod.first == UInt8(ascii: "/") { return .failure(.missingVersion) }
            return .failure(malformed)
        }
        let target = line[(firstSpace + 1)..<secondSpace]
        let versionBytes = line[(secondSpace + 1)...]
        guard !method.isEmpty, !target.isEmpty, !versionBytes.isEmpty, !versionBytes.contains(0x20) else {
            return .failure(malformed)
        }
        guard HTTPSyntax.isToken(method) else { return .failure(.invalidMethod) }
        let methodText = String(decoding: method, as: UTF8.self)
        let version: HTTPVersion
        switch parseVersion(versionBytes) {
        case .success(let parsed): version = parsed
        case .failure(let error): return .failure(error)
        }
        var question: Int?
        var fragment = false
        for index in target.indices {
            let byte = target[index]
            guard byte > 0x20, byte < 0x7F else { return .failure(.invalidTarget(reason: "bytes outside visible ASCII")) }
            if byte == UInt8(ascii: "#") { fragment = true }
            if byte == UInt8(ascii: "?"), question == nil { question = index }
        }
        guard !fragment else { return .failure(.invalidTarget(reason: "a fragment")) }
        let targetText = String(decoding: target, as: UTF8.self)
        if target.first == UInt8(ascii: "/") {
            // Origin-form, the usual case: split at the first `?` without another pass.
            guard let question else {
                return .success(RequestLine(method: methodText, target: targetText, path: targetText, query: nil, version: version))
            }
            return .success(RequestLine(
                method: methodText, target: targetText, path: String(decoding: target[..<question], as: UTF8.self),
                query: String(decoding: target[(question + 1)...], as: UTF8.self), version: version))
        }
        return parseTarget(targetText, method: methodText).map { path, query in
            RequestLine(method: methodText, target: targetText, path: path, query: query, version: version)
        }
    }

    /// `HTTP/1.0` and `HTTP/1.1`; other well-formed versions fail with 505.
    func parseVersion(_ text: ArraySlice<UInt8>) -> Result<HTTPVersion, HTTPParseError> {
        let start = text.startIndex
        guard text.count == 8, text[start..<(start + 5)].elementsEqual("HTTP/".utf8), text[start + 6] == UInt8(ascii: "."),
              (0x30...0x39).contains(text[start + 5]), (0x30...0x39).contains(text[start + 7])
        else { return .failure(.malformedRequestLine(reason: "invalid protocol version")) }
        let version = HTTPVersion(major: Int(text[start + 5] - 0x30), minor: Int(text[start + 7] - 0x30))
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
