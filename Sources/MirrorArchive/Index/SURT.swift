import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sort-friendly URI Reordering Transform: the index key of CDXJ (`com,example)/a/b?x=1`).
///
/// The same key as the `surt` package that cdxj-indexer and pywb use (its default: the Google
/// then the Internet Archive canonicalizer, no scheme, no trailing comma), so that our index and
/// theirs agree line for line:
/// - the host is lower-cased, a leading `www.`/`www2.` dropped, dotted IPv4 forms normalised,
///   and its labels reversed with commas (`example.com` → `com,example`); a port other than the
///   scheme's default follows it; `)` ends the authority;
/// - the path and query are percent-decoded until nothing changes, then every byte outside
///   printable ASCII (and `%`, `#`, space) is escaped once; dot segments and repeated slashes are
///   removed; a trailing slash is dropped; both are lower-cased;
/// - session ids (`jsessionid=`, `phpsessid=`, `sid=` with 32 characters, `ASPSESSIONID…`,
///   `cfid`/`cftoken`, the ASP.NET `(S(…))` path form) are removed;
/// - query arguments are sorted; an empty query is dropped; the fragment is dropped.
///
/// A non-ASCII host is escaped, not converted to IDNA (the mirror's URLs carry the host as the
/// server named it).
public enum SURT {
    /// The SURT key of an absolute URL.
    public static func key(_ url: String) -> String {
        guard !url.isEmpty else { return "-" }
        if let quick = plainKey(url) { return quick }
        return fullKey(url)
    }

    /// The key through both canonicalizers, step by step.
    static func fullKey(_ url: String) -> String {
        guard !url.isEmpty else { return "-" }
        var text = Array(url.utf8)
        while let first = text.first, first <= 0x20 { text.removeFirst() }
        while let last = text.last, last <= 0x20 { text.removeLast() }
        text.removeAll { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        var parts = split(text)
        if parts.scheme.isEmpty { parts = split(Array("http://".utf8) + text) }

        // Authority: drop userinfo, split host and port (python's urlsplit .hostname / .port).
        var netloc = parts.netloc
        if netloc.last == UInt8(ascii: ":") { netloc.removeLast() }
        if let at = netloc.lastIndex(of: UInt8(ascii: "@")) { netloc = Array(netloc[(at + 1)...]) }
        var host: [UInt8]
        var port: Int?
        if netloc.first == UInt8(ascii: "["), let close = netloc.firstIndex(of: UInt8(ascii: "]")) {
            host = Array(netloc[1..<close])
            let rest = netloc[(close + 1)...]
            if rest.first == UInt8(ascii: ":") { port = Int(String(decoding: rest.dropFirst(), as: UTF8.self)) }
        } else if let colon = netloc.lastIndex(of: UInt8(ascii: ":")) {
            host = Array(netloc[..<colon])
            port = Int(String(decoding: netloc[(colon + 1)...], as: UTF8.self))
        } else {
            host = netloc
        }
        host = lower(host)

        // Google canonicalizer.
        var query: [UInt8]? = parts.query.isEmpty ? nil : escapeOnce(unescapeRepeatedly(parts.query))
        host = unescapeRepeatedly(host)
        host = replaceDoubleDots(host)
        while host.first == UInt8(ascii: ".") { host.removeFirst() }
        while host.last == UInt8(ascii: ".") { host.removeLast() }
        if let ip = ipv4(host) { host = ip } else { host = escapeOnce(lower(host)) }
        var path = unescapeRepeatedly(parts.path)
        if !host.isEmpty { path = normalizePath(path) }
        path = escapeOnce(path)

        // Internet Archive canonicalizer.
        host = lower(host)
        if let stripped = stripWWW(host) { host = stripped }
        let scheme = lower(parts.scheme)
        if let given = port, (scheme == Array("http".utf8) && given == 80) || (scheme == Array("https".utf8) && given == 443) {
            port = nil
        }
        path = lower(path)
        path = stripPathSessionID(path)
        if path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        if var current = query {
            current = stripQuerySessionID(current)
            current = lower(current)
            current = alphaReorder(current)
            query = current.isEmpty ? nil : current
        }

        var output: [UInt8] = []
        if host.isEmpty {
            output = scheme + [UInt8(ascii: ":")]
        } else {
            output += reverseLabels(host)
            if let port { output += Array(":\(port)".utf8) }
            output.append(UInt8(ascii: ")"))
        }
        if !path.isEmpty {
            output += path
        } else if query != nil {
            output.append(UInt8(ascii: "/"))
        }
        if let query { output += [UInt8(ascii: "?")] + query }
        return String(decoding: output, as: UTF8.self)
    }

    /// The key of a URL that needs none of the canonicalizers' repairs (what a crawl's
    /// normalised URLs nearly always are), in one pass; nil for any other URL, which takes the
    /// full path. Such a URL is `http(s)://` and a host of lower-case letters, digits, `-` and
    /// `.` (not an IP address, not `www…`), an optional port, and a path and query of printable
    /// ASCII without `%`, `#`, dot or empty segments, or anything a session id could hide in.
    static func plainKey(_ url: String) -> String? {
        var bytes = Array(url.utf8)
        let https = bytes.starts(with: Array("https://".utf8))
        guard https || bytes.starts(with: Array("http://".utf8)) else { return nil }
        var index = https ? 8 : 7
        let hostStart = index
        var hasLetter = false
        while index < bytes.count, bytes[index] != 0x2F, bytes[index] != 0x3A, bytes[index] != 0x3F {
            let byte = bytes[index]
            guard (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E else { return nil }
            if (0x61...0x7A).contains(byte) { hasLetter = true }
            index += 1
        }
        let host = bytes[hostStart..<index]
        guard !host.isEmpty, host.first != 0x2E, host.last != 0x2E, !host.starts(with: Array("www".utf8)),
              !zip(host, host.dropFirst()).contains(where: { $0 == 0x2E && $1 == 0x2E }),
              hasLetter || isCanonicalIPv4(host)
        else { return nil }
        var port: [UInt8] = []
        if index < bytes.count, bytes[index] == 0x3A {
            index += 1
            let portStart = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            let digits = bytes[portStart..<index]
            guard !digits.isEmpty, digits.count <= 5, digits.first != 0x30 else { return nil }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            if !((https && value == 443) || (!https && value == 80)) { port = [0x3A] + digits }
        }
        guard index < bytes.count, bytes[index] == 0x2F else { return nil }  // the path must start with "/"
        var path: [UInt8] = []
        var query: [UInt8]?
        var segmentStart = index + 1
        var cursor = index
        while cursor < bytes.count {
            let byte = bytes[cursor]
            guard byte > 0x20, byte < 0x7F, byte != 0x25, byte != 0x23, byte != 0x5C else { return nil }
            if byte == 0x3F {
                query = Array(bytes[(cursor + 1)...])
                break
            }
            if byte == 0x2F, cursor > index {
                let segment = bytes[segmentStart..<cursor]
                if segment.isEmpty || segment.elementsEqual([0x2E]) || segment.elementsEqual([0x2E, 0x2E]) { return nil }
                segmentStart = cursor + 1
            }
            path.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
            cursor += 1
        }
        let last = bytes[segmentStart..<(query == nil ? bytes.count : cursor)]
        if last.elementsEqual([0x2E]) || last.elementsEqual([0x2E, 0x2E]) { return nil }
        if containsIgnoringCase(path, ".aspx") { return nil }
        if path.count > 1, path.last == 0x2F { path.removeLast() }
        if var text = query {
            guard text.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x25 && $0 != 0x23 }) else { return nil }
            if containsIgnoringCase(text, "sid") || containsIgnoringCase(text, "sessionid") || containsIgnoringCase(text, "cfid") { return nil }
            text = alphaReorder(lower(text))
            query = text.isEmpty ? nil : text
        }
        bytes = reverseLabels(Array(host)) + port + [0x29] + path
        if let query { bytes += [0x3F] + query }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `a.b.c.d` with four decimal parts of 0 to 255 and no leading zero: the form the `surt`
    /// package's address lookup returns unchanged.
    private static func isCanonicalIPv4(_ host: ArraySlice<UInt8>) -> Bool {
        let parts = host.split(separator: 0x2E, omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ (0x30...0x39).contains($0) }),
                  part.count == 1 || part.first != 0x30 else { return false }
            return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }

    // MARK: Parts

    /// RFC 3986 appendix B's split: scheme, authority, path, query (the fragment is dropped).
    private static func split(_ url: [UInt8]) -> (scheme: [UInt8], netloc: [UInt8], path: [UInt8], query: [UInt8]) {
        var index = 0
        var scheme: [UInt8] = []
        if let colon = url.firstIndex(of: UInt8(ascii: ":")), colon > 0,
           url[..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }), isAlpha(url[0]) {
            scheme = Array(url[..<colon])
            index = colon + 1
        }
        let end = url[index...].firstIndex(of: UInt8(ascii: "#")) ?? url.count
        var rest = url[index..<end]
        var netloc: [UInt8] = []
        if rest.starts(with: [0x2F, 0x2F]) {
            rest = rest.dropFirst(2)
            let stop = rest.firstIndex { $0 == 0x2F || $0 == 0x3F } ?? rest.endIndex
            netloc = Array(rest[..<stop])
            rest = rest[stop...]
        }
        let questionMark = rest.firstIndex(of: 0x3F)
        let path = Array(rest[..<(questionMark ?? rest.endIndex)])
        let query = questionMark.map { Array(rest[($0 + 1)...]) } ?? []
        return (scheme, netloc, path, query)
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func lower(_ bytes: [UInt8]) -> [UInt8] { bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 } }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Percent-decodes until nothing changes.
    static func unescapeRepeatedly(_ input: [UInt8]) -> [UInt8] {
        var current = input
        while current.contains(UInt8(ascii: "%")) {
            var output: [UInt8] = []
            output.reserveCapacity(current.count)
            var index = 0
            while index < current.count {
                if current[index] == UInt8(ascii: "%"), index + 2 < current.count,
                   let high = hex(current[index + 1]), let low = hex(current[index + 2]) {
                    output.append(high << 4 | low)
                    index += 3
                } else {
                    output.append(current[index])
                    index += 1
                }
            }
            if output == current { break }
            current = output
        }
        return current
    }

    /// Escapes every byte outside printable ASCII, and `%`, `#` and space (python's
    /// `quote_from_bytes` with the `surt` package's safe set), in upper-case hex.
    static func escapeOnce(_ input: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        for byte in input {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "#") {
                output += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            } else {
                output.append(byte)
            }
        }
        return output
    }

    private static func replaceDoubleDots(_ host: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < host.count {
            if host[index] == 0x2E, index + 1 < host.count, host[index + 1] == 0x2E {
                output.append(0x2E)
                index += 2
            } else {
                output.append(host[index])
                index += 1
            }
        }
        return output
    }

    /// Dotted, decimal, octal and hex IPv4 forms as `a.b.c.d` (what the `surt` package gets from
    /// inet_aton through gethostbyname); nil for a name.
    private static func ipv4(_ host: [UInt8]) -> [UInt8]? {
        guard !host.isEmpty, host.allSatisfy({ isDigit($0) || $0 == 0x2E }) else { return nil }
        if host.allSatisfy(isDigit) {
            guard let value = UInt64(String(decoding: host.suffix(19), as: UTF8.self)) else { return nil }
            let masked = UInt32(truncatingIfNeeded: value)
            return Array("\(masked >> 24).\(masked >> 16 & 0xFF).\(masked >> 8 & 0xFF).\(masked & 0xFF)".utf8)
        }
        var address = in_addr()
        let text = String(decoding: host, as: UTF8.self)
        guard inet_aton(text, &address) != 0 else { return nil }
        let value = UInt32(bigEndian: address.s_addr)
        return Array("\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)".utf8)
    }

    /// Removes dot segments and empty segments, keeping a trailing slash.
    private static func normalizePath(_ path: [UInt8]) -> [UInt8] {
        guard !path.isEmpty else { return [UInt8(ascii: "/")] }
        let segments = path.split(separator: 0x2F, omittingEmptySubsequences: false).dropFirst()
        var kept: [ArraySlice<UInt8>] = []
        for segment in segments {
            if segment.elementsEqual([0x2E]) { continue }
            if segment.elementsEqual([0x2E, 0x2E]) {
                if kept.isEmpty { kept.append(segment) } else { kept.removeLast() }
                continue
            }
            kept.append(segment)
        }
        var output: [UInt8] = [0x2F]
        if let last = kept.last {
            for segment in kept.dropLast() where !segment.isEmpty { output += segment + [0x2F] }
            output += last
        }
        return output
    }

    private static func stripWWW(_ host: [UInt8]) -> [UInt8]? {
        guard host.starts(with: Array("www".utf8)) else { return nil }
        var index = 3
        while index < host.count, isDigit(host[index]) { index += 1 }
        guard index < host.count, host[index] == 0x2E else { return nil }
        return Array(host[(index + 1)...])
    }

    private static func reverseLabels(_ host: [UInt8]) -> [UInt8] {
        Array(host.split(separator: 0x2E, omittingEmptySubsequences: false).reversed().joined(separator: [0x2C]))
    }

    private static func alphaReorder(_ query: [UInt8]) -> [UInt8] {
        guard query.count > 1 else { return query }
        let arguments = query.split(separator: 0x26, omittingEmptySubsequences: false).map { argument -> (ArraySlice<UInt8>, ArraySlice<UInt8>?) in
            if let equals = argument.firstIndex(of: 0x3D) { return (argument[..<equals], argument[(equals + 1)...]) }
            return (argument, nil)
        }
        let sorted = arguments.sorted { a, b in
            if !a.0.elementsEqual(b.0) { return a.0.lexicographicallyPrecedes(b.0) }
            switch (a.1, b.1) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x.lexicographicallyPrecedes(y)
            }
        }
        var output: [UInt8] = []
        for (index, argument) in sorted.enumerated() {
            if index > 0 { output.append(0x26) }
            output += argument.0
            if let value = argument.1 { output += [0x3D] + value }
        }
        return output
    }

    // MARK: Session ids

    private static let queryPatterns: [NSRegularExpression] = [
        "^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$",
        "^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$",
        "^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$",
        "^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$",
        "^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$",
    ].compactMap { try? NSRegularExpression(pattern: $0, options: [.caseInsensitive, .dotMatchesLineSeparators]) }

    private static let pathPatterns: [NSRegularExpression] = [
        #"^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$"#,
        #"^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$"#,
    ].compactMap { try? NSRegularExpression(pattern: $0, options: [.caseInsensitive, .dotMatchesLineSeparators]) }

    /// Whether `bytes` contains `needle` (ASCII lower case), compared without case.
    private static func containsIgnoringCase(_ bytes: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard bytes.count >= needle.count else { return false }
        outer: for start in 0...(bytes.count - needle.count) {
            for (offset, byte) in needle.enumerated() {
                let candidate = bytes[start + offset]
                if ((0x41...0x5A).contains(candidate) ? candidate | 0x20 : candidate) != byte { continue outer }
            }
            return true
        }
        return false
    }

    private static func stripQuerySessionID(_ query: [UInt8]) -> [UInt8] {
        guard containsIgnoringCase(query, "sid") || containsIgnoringCase(query, "sessionid") || containsIgnoringCase(query, "cfid")
        else { return query }
        var text = String(decoding: query, as: UTF8.self)
        for pattern in queryPatterns {
            let range = NSRange(text.startIndex..., in: text)
            guard let match = pattern.firstMatch(in: text, range: range) else { continue }
            let head = Range(match.range(at: 1), in: text).map { String(text[$0]) } ?? ""
            let tail = Range(match.range(at: 2), in: text).map { String(text[$0]) } ?? ""
            text = head + tail
        }
        return Array(text.utf8)
    }

    private static func stripPathSessionID(_ path: [UInt8]) -> [UInt8] {
        guard containsIgnoringCase(path, ".aspx") else { return path }
        var text = String(decoding: path, as: UTF8.self)
        for pattern in pathPatterns {
            let range = NSRange(text.startIndex..., in: text)
            guard let match = pattern.firstMatch(in: text, range: range),
                  let first = Range(match.range(at: 1), in: text), let third = Range(match.range(at: 3), in: text) else { continue }
            text = String(text[first]) + String(text[third])
        }
        return Array(text.utf8)
    }
}
