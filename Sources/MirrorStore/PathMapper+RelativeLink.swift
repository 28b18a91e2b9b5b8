extension PathMapper {
    /// The relative URL to write into the file at `source` so that it points to `target`.
    ///
    /// Both paths are relative to the same site folder, as returned by
    /// ``relativePath(for:contentType:)``. Each name is percent-encoded for use in a URL:
    /// everything except unreserved characters and `!$&'()*+,;=@` is encoded, so `%`, `#`, `?`,
    /// `:`, `^`, spaces and non-ASCII (as UTF-8) cannot be misread by a browser or by the local
    /// server. A file name literally containing `%20` is written as `%2520`.
    /// - Parameters:
    ///   - source: the path of the file the link is written into.
    ///   - target: the path of the file the link points to.
    ///   - fragment: the fragment to append after `#` (already URL-encoded, as in
    ///     ``WebURL/fragment``); `nil` or empty for none.
    public static func relativeLink(from source: String, to target: String, fragment: String?) -> String {
        let sourceDirectory = components(of: source).dropLast()
        let targetComponents = components(of: target)
        let targetDirectory = targetComponents.dropLast()
        var common = 0
        while common < sourceDirectory.count, common < targetDirectory.count,
              sourceDirectory[common] == targetDirectory[common] {
            common += 1
        }
        var link = String(repeating: "../", count: sourceDirectory.count - common)
        link += targetComponents[common...].map(encodeForLink).joined(separator: "/")
        if link.isEmpty { link = "./" }
        if let fragment, !fragment.isEmpty {
            link += "#" + encodeFragment(fragment)
        }
        return link
    }

    static func components(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// Percent-encodes one path component for an href.
    static func encodeForLink(_ component: String) -> String {
        var out: [UInt8] = []
        for byte in component.utf8 {
            if WebURLBytes.isUnreservedOrSubDelimiter(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), FileNameEncoding.hexDigit(byte >> 4), FileNameEncoding.hexDigit(byte & 0x0F)]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes what may not appear raw in a fragment; existing `%XX` stay as they are.
    static func encodeFragment(_ fragment: String) -> String {
        var out: [UInt8] = []
        for byte in fragment.utf8 {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") {
                out += [UInt8(ascii: "%"), FileNameEncoding.hexDigit(byte >> 4), FileNameEncoding.hexDigit(byte & 0x0F)]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// RFC 3986 character classes needed when writing links.
enum WebURLBytes {
    /// Unreserved, sub-delims and `@`: safe raw in any relative path segment.
    static func isUnreservedOrSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }
}
