// Building one directory or file name from URL text (see `PathMapper` for the scheme).

extension PathMapper {
    /// The name of a directory for a (non-last) URL path segment.
    func directoryName(_ segment: [UInt8], isTopLevel: Bool) -> String {
        guard !segment.isEmpty else { return "^" }
        var name = FileNameEncoding.encodeSegment(segment[...])
        FileNameEncoding.escapeDeviceName(&name)
        // A directory must never look like a kept file name: escape the dot before a known
        // extension at its end.
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0,
           MediaTypes.isKnownExtension(String(decoding: name[(dot + 1)...], as: UTF8.self)) {
            name.replaceSubrange(dot...dot, with: FileNameEncoding.escaped(UInt8(ascii: ".")))
        }
        if isTopLevel {
            let text = String(decoding: name, as: UTF8.self)
            if text == PathMapper.hostsFolderName || text == PathMapper.storeFolderName {
                name.replaceSubrange(0...0, with: FileNameEncoding.escaped(name[0]))
            }
        }
        if FileNameEncoding.hasUppercase(segment[...]) {
            name += Array("^h".utf8) + Array(PathMapper.hashHex(segment, digits: 8).utf8)
        }
        return FileNameEncoding.shorten(name, extensionLength: 0, limit: maximumComponentLength)
    }

    /// The file name for the last URL path segment, the query and the content type.
    func fileName(lastSegment segment: [UInt8], query: String?, contentType: String?) -> String {
        let typeExtension = contentType.flatMap(MediaTypes.fileExtension(forContentType:))
        var segmentExtension: String?
        if let dot = segment.lastIndex(of: UInt8(ascii: ".")), dot > 0 {
            let ext = String(decoding: segment[(dot + 1)...], as: UTF8.self)
            if MediaTypes.isKnownExtension(ext) { segmentExtension = ext }
        }

        if query == nil, segment.isEmpty {
            return "index." + (typeExtension ?? "html")
        }
        let stemIsIndex = segment.starts(with: "index.".utf8)
            && segment.lastIndex(of: UInt8(ascii: ".")) == 5
        if query == nil, let segmentExtension, !stemIsIndex {
            // Kept name: `b.css`, with the case hash before the extension when needed.
            var name = FileNameEncoding.encodeSegment(segment[...])
            FileNameEncoding.escapeDeviceName(&name)
            let extensionLength = segmentExtension.utf8.count + 1
            if FileNameEncoding.hasUppercase(segment[...]) {
                let hash = Array("^h".utf8) + Array(PathMapper.hashHex(segment, digits: 8).utf8)
                name.insert(contentsOf: hash, at: name.count - extensionLength)
            }
            return FileNameEncoding.shorten(name, extensionLength: extensionLength, limit: maximumComponentLength)
        }

        // Completed name: `<segment>@<query>.<ext>`.
        var name = FileNameEncoding.encodeSegment(segment[...])
        FileNameEncoding.escapeDeviceName(&name)
        name.append(UInt8(ascii: "@"))
        let queryBytes = Array((query ?? "").utf8)
        name += FileNameEncoding.encodeQuery(queryBytes[...])
        if FileNameEncoding.hasUppercase(segment[...]) || FileNameEncoding.hasUppercase(queryBytes[...]) {
            let key = segment + [UInt8(ascii: "?")] + queryBytes
            name += Array("^h".utf8) + Array(PathMapper.hashHex(key, digits: 8).utf8)
        }
        let ext = typeExtension ?? segmentExtension?.lowercased() ?? (contentType == nil ? "html" : "bin")
        name += Array(".\(ext)".utf8)
        return FileNameEncoding.shorten(name, extensionLength: ext.utf8.count + 1, limit: maximumComponentLength)
    }
}

/// The byte-level escaping behind `PathMapper` names.
enum FileNameEncoding {
    /// `^XX` for a byte, upper-case hex.
    static func escaped(_ byte: UInt8) -> [UInt8] {
        [UInt8(ascii: "^"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
    }

    static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }

    static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    /// Whether a byte may appear raw in a name: printable ASCII except the characters that
    /// Windows, macOS or the mapper's own syntax reserve.
    static func isRawSafe(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: ":"), UInt8(ascii: "*"),
             UInt8(ascii: "?"), UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "@"), UInt8(ascii: "#"):
            return false
        default:
            return true
        }
    }

    /// Escapes a URL path segment; `%XX` triplets are kept, a trailing dot is escaped.
    static func encodeSegment(_ segment: ArraySlice<UInt8>) -> [UInt8] {
        var out = encode(segment, keepRaw: isRawSafe)
        if out.last == UInt8(ascii: ".") {
            out.removeLast()
            out += escaped(UInt8(ascii: "."))
        }
        return out
    }

    /// Escapes a query for the part of a file name after `@`; `@` may stay raw there.
    static func encodeQuery(_ query: ArraySlice<UInt8>) -> [UInt8] {
        encode(query) { isRawSafe($0) || $0 == UInt8(ascii: "@") }
    }

    /// Writes URL bytes as a file name. `%XX` triplets of ASCII bytes stay as they are (a
    /// reserved character and its encoding are different URLs: `a@b` and `a%40b`). A run of
    /// encoded non-ASCII bytes that forms valid, printable UTF-8 text is written as that text,
    /// so that names stay readable (`caf%C3%A9.png` is stored as `café.png`, as wget does);
    /// normalised URLs never hold raw non-ASCII, so this cannot make two URLs share a name.
    static func encode(_ bytes: ArraySlice<UInt8>, keepRaw: (UInt8) -> Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard let decoded = decodedTriplet(bytes, at: index) else {
                    out += escaped(byte)
                    index += 1
                    continue
                }
                if decoded < 0x80 {
                    out += bytes[index...(index + 2)]
                    index += 3
                    continue
                }
                // A run of encoded non-ASCII bytes: raw when it is valid UTF-8 text.
                var run: [UInt8] = []
                var end = index
                while end < bytes.endIndex, let next = decodedTriplet(bytes, at: end), next >= 0x80 {
                    run.append(next)
                    end += 3
                }
                if let text = String(validating: run, as: UTF8.self), text.unicodeScalars.allSatisfy(isPrintable) {
                    out += run
                } else {
                    out += bytes[index..<end]
                }
                index = end
                continue
            } else if keepRaw(byte) {
                out.append(byte)
            } else {
                out += escaped(byte)
            }
            index += 1
        }
        return out
    }

    /// The byte a `%XX` triplet at `index` encodes, or nil.
    static func decodedTriplet(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt8? {
        guard index + 2 < bytes.endIndex, bytes[index] == UInt8(ascii: "%"),
              isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return nil }
        func value(_ digit: UInt8) -> UInt8 {
            switch digit {
            case 0x30...0x39: digit - 0x30
            case 0x41...0x46: digit - 0x37
            default: digit - 0x57
            }
        }
        return value(bytes[index + 1]) << 4 | value(bytes[index + 2])
    }

    /// Non-ASCII scalars allowed raw in names: not controls, not format or separator marks
    /// (no bidi overrides, no line separators), not private use.
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned, .spaceSeparator:
            return false
        default:
            return true
        }
    }

    /// Windows device names, matched case-insensitively before the first dot.
    static let deviceNames: Set<String> = {
        var names: Set<String> = ["con", "prn", "aux", "nul", "conin$", "conout$", "clock$"]
        for digit in 0...9 {
            names.insert("com\(digit)")
            names.insert("lpt\(digit)")
        }
        return names
    }()

    /// Escapes the last character before the first dot when that part is a device name.
    static func escapeDeviceName(_ name: inout [UInt8]) {
        let stemEnd = name.firstIndex(of: UInt8(ascii: ".")) ?? name.count
        guard stemEnd > 0 else { return }
        let stem = String(decoding: name[..<stemEnd], as: UTF8.self).lowercased()
        guard deviceNames.contains(stem) else { return }
        name.replaceSubrange((stemEnd - 1)..<stemEnd, with: escaped(name[stemEnd - 1]))
    }

    /// Whether URL text has an upper-case letter: ASCII outside `%XX` triplets, or a
    /// percent-encoded non-ASCII letter with a lower-case form (`%C3%89`, É), since names are
    /// written decoded and case-insensitive file systems fold those too.
    static func hasUppercase(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        var encoded: [UInt8] = []
        while index < bytes.endIndex {
            let byte = bytes[index]
            if let decoded = decodedTriplet(bytes, at: index) {
                if decoded >= 0x80 { encoded.append(decoded) }
                index += 3
                continue
            }
            if byte >= 0x41, byte <= 0x5A { return true }
            index += 1
        }
        guard !encoded.isEmpty else { return false }
        let text = String(decoding: encoded, as: UTF8.self)
        return text.lowercased() != text
    }

    /// Shortens a name longer than `limit` bytes to a prefix, `^t`, 16 hex digits of the
    /// full name's SHA-256, and its last `extensionLength` bytes.
    static func shorten(_ name: [UInt8], extensionLength: Int, limit: Int) -> String {
        guard name.count > limit else { return String(decoding: name, as: UTF8.self) }
        var cut = limit - extensionLength - 18 - 8
        // Do not split a `%XX` or `^XX` sequence.
        for back in 1...2 where cut - back >= 0 {
            let byte = name[cut - back]
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "^") {
                cut -= back
                break
            }
        }
        let hash = PathMapper.hashHex(name, digits: 16)
        let shortened = Array(name[..<cut]) + Array("^t\(hash)".utf8) + Array(name[(name.count - extensionLength)...])
        return String(decoding: shortened, as: UTF8.self)
    }
}
