import MirrorCore

extension MirrorVerifier {
    /// What one reference in a mirrored file means, before looking at the disk.
    public enum Classification: Sendable, Hashable {
        /// Nothing to check: empty, fragment-only, or a scheme that is not fetched (`mailto:`…).
        case skipped
        /// An absolute URL outside the origin prefixes.
        case external
        /// An absolute URL that starts with one of the origin prefixes.
        case pointsAtOrigin
        /// A local file, as path segments from the snapshot root; `isDirectory` when the
        /// reference ends in `/` (or `.`/`..`), so that `index.html` must be inside.
        case local(segments: [String], isDirectory: Bool)
        /// A relative reference that leaves the snapshot root.
        case escapesRoot
        /// A local reference that is wrong whatever is on disk.
        case broken(Reason)
    }

    /// Classifies `reference`, found in a file whose folder is `directory` (segments from the
    /// snapshot root), with `file://` semantics: the fragment is dropped, a query makes the
    /// reference broken, the path is percent-decoded, then `.` and `..` are applied.
    ///
    /// - Parameters:
    ///   - reference: The reference as the extractor decoded it.
    ///   - directory: The folder of the file (or of its local `<base href>`), as segments.
    ///   - originPrefixes: In-scope origins such as `"https://127.0.0.1:8443/"`, compared
    ///     ASCII-case-insensitively with the start of absolute references.
    ///   - absoluteBase: The document's `<base href>` when it is an absolute http(s) URL:
    ///     relative references then resolve against it, not against the file.
    public static func classify(
        _ reference: String, directory: [String], originPrefixes: [String], absoluteBase: WebURL? = nil
    ) -> Classification {
        let trimmed = reference.trimmingASCIIWhitespace()
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .skipped }
        if let scheme = WebURL.scheme(of: trimmed) {
            switch scheme {
            case "http", "https": return absolute(trimmed, originPrefixes: originPrefixes)
            case "file": return .broken(.absoluteFileURL)
            default: return .skipped
            }
        }
        if trimmed.hasPrefix("//") || trimmed.hasPrefix("\\\\") {
            let scheme = absoluteBase?.scheme ?? "https"
            return absolute(scheme + ":" + trimmed, originPrefixes: originPrefixes)
        }
        if let absoluteBase {
            guard let resolved = absoluteBase.resolve(trimmed) else { return .broken(.invalidPercentEncoding) }
            return absolute(resolved.string, originPrefixes: originPrefixes)
        }
        var path = Substring(trimmed)
        if let hash = path.firstIndex(of: "#") { path = path[..<hash] }
        if path.contains("?") { return .broken(.hasQuery) }
        if path.hasPrefix("/") { return .escapesRoot }
        var segments = directory
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var isDirectory = false
        for (index, part) in parts.enumerated() {
            guard let name = percentDecoded(part) else { return .broken(.invalidPercentEncoding) }
            let isLast = index == parts.count - 1
            switch name {
            case ".":
                isDirectory = isLast
            case "..":
                if segments.isEmpty { return .escapesRoot }
                segments.removeLast()
                isDirectory = isLast
            case "":
                isDirectory = isLast
            default:
                segments.append(name)
                isDirectory = false
            }
        }
        return .local(segments: segments, isDirectory: isDirectory)
    }

    private static func absolute(_ url: String, originPrefixes: [String]) -> Classification {
        let lowered = url.lowercased()
        return originPrefixes.contains { lowered.hasPrefix($0.lowercased()) } ? .pointsAtOrigin : .external
    }

    /// Decodes `%XX` escapes as UTF-8; nil for a malformed escape, invalid UTF-8, or a result
    /// that contains `/` or NUL (which no file name can hold).
    static func percentDecoded(_ part: Substring) -> String? {
        guard part.contains("%") else { return String(part) }
        var bytes: [UInt8] = []
        var utf8 = part.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8.removeFirst()), let low = hexValue(utf8.removeFirst()) else {
                return nil
            }
            let decoded = high << 4 | low
            if decoded == 0 || decoded == UInt8(ascii: "/") { return nil }
            bytes.append(decoded)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace (what browsers strip from URL attributes).
    fileprivate func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
