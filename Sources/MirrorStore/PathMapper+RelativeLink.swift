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
        let sourceBytes = Array(source.utf8)
        let targetBytes = Array(target.utf8)
        let sourceDirectory = components(of: sourceBytes).dropLast()
        let targetComponents = components(of: targetBytes)
        let targetDirectory = targetComponents.dropLast()
        var common = 0
        while common < sourceDirectory.count, common < targetDirectory.count,
              sourceDirectory[common].elementsEqual(targetDirectory[common]) {
            common += 1
        }
        var link: [UInt8] = []
        link.reserveCapacity(targetBytes.count + 3 * (sourceDirectory.count - common) + 8)
        for _ in common..<sourceDirectory.count { link += "../".utf8 }
        for (position, component) in targetComponents[common...].enumerated() {
            if position > 0 { link.append(UInt8(ascii: "/")) }
            appendEncodedForLink(component, to: &link)
        }
        if link.isEmpty { link = Array("./".utf8) }
        var text = String(decoding: link, as: UTF8.self)
        if let fragment, !fragment.isEmpty {
            text += "#" + encodeFragment(fragment)
        }
        return text
    }

    /// The non-empty `/`-separated components of a path, as slices of its bytes.
    static func components(of path: [UInt8]) -> [ArraySlice<UInt8>] {
        path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
    }

    /// Appends one path component, percent-encoded for an href.
    static func appendEncodedForLink(_ component: ArraySlice<UInt8>, to out: inout [UInt8]) {
        for byte in component {
            if WebURLBytes.isUnreservedOrSubDelimiter(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), FileNameEncoding.hexDigit(byte >> 4), FileNameEncoding.hexDigit(byte & 0x0F)]
            }
        }
    }

    /// Percent-encodes one path component for an href.
    static func encodeForLink(_ component: String) -> String {
        var out: [UInt8] = []
        appendEncodedForLink(Array(component.utf8)[...], to: &out)
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
