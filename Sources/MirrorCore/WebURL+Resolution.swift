// Reference resolution (RFC 3986 §5.2), with the WHATWG leniencies browsers apply to http(s).

extension WebURL {
    /// Resolves a reference found in a document against this URL, or returns `nil` when the
    /// result is not an acceptable http(s) URL.
    ///
    /// Use ``resolving(_:maximumLength:)`` to learn why, or ``scheme(of:)`` to tell a
    /// `mailto:`/`javascript:` link from a malformed one.
    /// - Parameter reference: the raw attribute or CSS value (relative or absolute).
    public func resolve(_ reference: String) -> WebURL? {
        try? resolving(reference)
    }

    /// Resolves a reference against this URL (RFC 3986 §5.2) and normalises the result.
    ///
    /// Handles relative paths (`g`, `../g`), absolute paths (`/g`), network paths (`//host/g`),
    /// query-only (`?y`) and fragment-only (`#s`) references and the empty reference. As in
    /// browsers, a backslash counts as a slash outside query and fragment, any run of slashes
    /// and backslashes introduces the authority in a network path, and `http:g` or `http:/g`
    /// with the base's own scheme is relative (the "backward-compatible" reading of RFC 3986
    /// §5.4.2, as in the WHATWG "special relative or authority" state).
    /// - Parameters:
    ///   - reference: the raw reference text.
    ///   - maximumLength: the longest accepted reference and result, in UTF-8 bytes.
    /// - Throws: ``ParseError/unsupportedScheme(_:)`` for `mailto:`, `javascript:`, `data:`…,
    ///   and the other ``ParseError`` cases when the result is malformed or too long.
    public func resolving(
        _ reference: String, maximumLength: Int = WebURL.defaultMaximumLength
    ) throws(ParseError) -> WebURL {
        if let plain = resolvingPlainPath(reference, maximumLength: maximumLength) { return plain }
        return try resolvingInFull(reference, maximumLength: maximumLength)
    }

    /// The length of `scheme://host[:port]` in ``string``: what a resolution against this URL
    /// keeps.
    var originLength: Int {
        string.utf8.count - path.utf8.count - (query.map { $0.utf8.count + 1 } ?? 0) - (fragment.map { $0.utf8.count + 1 } ?? 0)
    }

    /// ``resolving(_:maximumLength:)`` the general way, for every kind of reference.
    func resolvingInFull(_ reference: String, maximumLength: Int) throws(ParseError) -> WebURL {
        var bytes = try WebURL.preprocess(reference, maximumLength: maximumLength)
        if let schemeCount = WebURL.schemeLength(bytes[...]) {
            let scheme = String(decoding: bytes[0..<schemeCount].map(ASCII.lowercased), as: UTF8.self)
            guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
            let rest = bytes[(schemeCount + 1)...]
            let startsWithTwoSlashes = rest.count >= 2 && ASCII.isSlash(rest[rest.startIndex])
                && ASCII.isSlash(rest[rest.startIndex + 1])
            if scheme == self.scheme, !startsWithTwoSlashes {
                bytes = Array(rest)
            } else {
                return try WebURL.parseAbsolute(bytes, maximumLength: maximumLength)
            }
        }
        // Network-path reference: `//host/…` (any mix of slashes and backslashes).
        if bytes.count >= 2, ASCII.isSlash(bytes[0]), ASCII.isSlash(bytes[1]) {
            return try WebURL.parseAbsolute(Array(self.scheme.utf8) + [UInt8(ascii: ":")] + bytes,
                                            maximumLength: maximumLength)
        }

        let pathEnd = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        let referencePath = bytes[..<pathEnd]  // a backslash counts as a slash here
        var tail = bytes[pathEnd...]
        var referenceQuery: ArraySlice<UInt8>?
        var referenceFragment: ArraySlice<UInt8>?
        if tail.first == UInt8(ascii: "?") {
            let fragmentStart = tail.firstIndex(of: UInt8(ascii: "#")) ?? tail.endIndex
            referenceQuery = tail[(tail.startIndex + 1)..<fragmentStart]
            tail = tail[fragmentStart...]
        }
        if tail.first == UInt8(ascii: "#") {
            referenceFragment = tail.dropFirst()
        }

        // The result keeps this URL's scheme and authority: compose only what follows it.
        var target: [UInt8] = []
        target.reserveCapacity(path.utf8.count + bytes.count + (query?.utf8.count ?? 0) + 2)
        if referencePath.isEmpty {
            target += path.utf8
            if let referenceQuery {
                target.append(UInt8(ascii: "?"))
                target += referenceQuery
            } else if let query {
                target.append(UInt8(ascii: "?"))
                target += query.utf8
            }
        } else {
            if let first = referencePath.first, !ASCII.isSlash(first) {
                // Merge (§5.2.3): the base path up to and including its last slash.
                let basePath = path.utf8
                if let lastSlash = basePath.lastIndex(of: UInt8(ascii: "/")) {
                    target += basePath[...lastSlash]
                } else {
                    target.append(UInt8(ascii: "/"))
                }
            }
            for byte in referencePath { target.append(byte == UInt8(ascii: "\\") ? UInt8(ascii: "/") : byte) }
            if let referenceQuery {
                target.append(UInt8(ascii: "?"))
                target += referenceQuery
            }
        }
        if let referenceFragment {
            target.append(UInt8(ascii: "#"))
            target += referenceFragment
        }
        let length = originLength + target.count
        guard length <= maximumLength else { throw .tooLong(length: length, limit: maximumLength) }
        // Normalising the composed path removes dot segments and normalises encoding.
        let (newPath, newQuery, newFragment) = WebURL.parsePathQueryFragment(target[...])
        return WebURL(scheme: scheme, host: host, port: port, path: newPath, query: newQuery, fragment: newFragment)
    }

    /// The lower-cased scheme a reference starts with (`mailto`, `javascript`, `https`…), or
    /// `nil` for a relative reference.
    ///
    /// Leading spaces and control characters are ignored and tabs/newlines removed first, as
    /// a browser does, so `" java\tscript:x"` reports `javascript`.
    /// - Parameter reference: the raw reference text.
    public static func scheme(of reference: String) -> String? {
        // One pass, no buffer unless there is a scheme: most references are relative.
        var scheme: [UInt8] = []
        var started = false
        for byte in reference.utf8 {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if !started {
                if byte <= 0x20 { continue }
                guard ASCII.isAlpha(byte) else { return nil }
                started = true
            } else if byte == UInt8(ascii: ":") {
                return String(decoding: scheme, as: UTF8.self)
            } else if !(ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: ".")) {
                return nil
            }
            if scheme.isEmpty { scheme.reserveCapacity(8) }
            scheme.append(ASCII.lowercased(byte))
        }
        return nil
    }
}
