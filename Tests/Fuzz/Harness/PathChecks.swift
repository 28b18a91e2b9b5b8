import MirrorCore
import MirrorStore

/// The promises of ``PathMapper``, as pure checks on its outputs.
public enum PathChecks {
    static let name = URLPathHarness.name
    static let reservedCharacters: Set<UInt8> = Set(":*?\"<>|\\".utf8)
    static let deviceNames: Set<String> = {
        var names: Set<String> = ["con", "prn", "aux", "nul", "conin$", "conout$", "clock$"]
        for digit in 0...9 { names.insert("com\(digit)"); names.insert("lpt\(digit)") }
        return names
    }()

    /// Checks one mapped path: relative, no empty, `.` or `..` component, no NUL, control,
    /// backslash or Windows-reserved character, no trailing dot or space, no device name, no
    /// component longer than the mapper's limit, not longer than its path limit, and not the
    /// mapper's last-resort fallback name (which would mean the construction failed).
    /// - Parameters:
    ///   - path: the mapped path.
    ///   - mapper: the mapper that produced it.
    ///   - url: the URL it was mapped from, for the report.
    /// - Returns: the first broken promise, or nil.
    public static func check(path: String, mapper: PathMapper, url: WebURL) -> FuzzViolation? {
        func violation(_ invariant: String) -> FuzzViolation {
            FuzzViolation(target: name, invariant: invariant, evidence: "\(Evidence.text(url.string)) → \(Evidence.text(path))")
        }
        guard PathMapper.isSafeRelativePath(path) else { return violation("PathMapper.isSafeRelativePath holds") }
        guard !path.hasPrefix("^x") else { return violation("the mapping never needs its fallback name") }
        guard path.utf8.count <= mapper.maximumPathLength else { return violation("the path is at most maximumPathLength bytes") }
        for component in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard !component.isEmpty, !component.elementsEqual(".".utf8), !component.elementsEqual("..".utf8) else {
                return violation("no component is empty, . or ..")
            }
            guard component.count <= min(mapper.maximumComponentLength, 255) else {
                return violation("each component is at most maximumComponentLength bytes")
            }
            guard !component.contains(where: { $0 < 0x20 || $0 == 0x7F || reservedCharacters.contains($0) }) else {
                return violation("no component holds a control, backslash or Windows-reserved character")
            }
            guard let last = component.last, last != UInt8(ascii: "."), last != UInt8(ascii: " ") else {
                return violation("no component ends with a dot or a space")
            }
            let stem = component.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false).first ?? component
            guard !deviceNames.contains(String(decoding: stem, as: UTF8.self).lowercased()) else {
                return violation("no component is a Windows device name")
            }
        }
        return nil
    }

    /// Two different URLs (fragments aside) get different files, also when compared without
    /// case, and neither file is a directory of the other's path.
    /// - Parameters:
    ///   - first: the first URL.
    ///   - firstPath: its mapped path.
    ///   - second: the second URL.
    ///   - secondPath: its mapped path (same content type).
    /// - Returns: the broken promise, or nil.
    public static func checkDistinct(_ first: WebURL, _ firstPath: String, _ second: WebURL, _ secondPath: String) -> FuzzViolation? {
        guard first.withoutFragment != second.withoutFragment else { return nil }
        let a = Array(firstPath.lowercased().utf8), b = Array(secondPath.lowercased().utf8)
        let evidence = "\(Evidence.text(first.string)) → \(Evidence.text(firstPath)); \(Evidence.text(second.string)) → \(Evidence.text(secondPath))"
        if a == b {
            return FuzzViolation(target: name, invariant: "different URLs never share a file (case-insensitively)", evidence: evidence)
        }
        if b.starts(with: a + [UInt8(ascii: "/")]) || a.starts(with: b + [UInt8(ascii: "/")]) {
            return FuzzViolation(target: name, invariant: "a file never sits where another URL needs a directory", evidence: evidence)
        }
        return nil
    }

    /// A relative link written into `source` resolves back to `target`: by path arithmetic
    /// (percent-decoding each segment, `..` never climbing above the site folder) and through
    /// ``WebURL`` resolution against the source file's own URL, as a browser would.
    /// - Parameters:
    ///   - link: the link from ``PathMapper/relativeLink(from:to:fragment:)``.
    ///   - source: the file the link is written into.
    ///   - target: the file the link must reach.
    /// - Returns: the broken promise, or nil.
    public static func checkLink(_ link: String, from source: String, to target: String) -> FuzzViolation? {
        func violation(_ invariant: String) -> FuzzViolation {
            FuzzViolation(target: name, invariant: invariant,
                          evidence: "link \(Evidence.text(link)) from \(Evidence.text(source)) to \(Evidence.text(target))")
        }
        let pathPart = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? link
        guard !pathPart.hasPrefix("/"), !pathPart.contains("?"), !pathPart.contains("\\") else {
            return violation("a link is a relative path without query or backslash")
        }
        let firstSegment = pathPart.split(separator: "/", omittingEmptySubsequences: false).first ?? ""
        guard !firstSegment.contains(":") else { return violation("a link's first segment cannot be read as a scheme") }
        // Split on the byte: `String.split` works on Characters, and a "/" followed by a
        // combining mark is one Character, not a separator (a file system sees the byte).
        func components(_ path: String) -> [String] {
            path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        }
        var stack = Array(components(source).dropLast())
        for segment in pathPart.split(separator: "/", omittingEmptySubsequences: false) {
            if segment == ".." {
                guard !stack.isEmpty else { return violation("a link never climbs above the site folder") }
                stack.removeLast()
            } else if segment == "." {
                continue
            } else {
                guard let decoded = percentDecoded(segment) else { return violation("a link's segments are valid percent-encoded UTF-8") }
                stack.append(decoded)
            }
        }
        guard stack.joined(separator: "/") == target else { return violation("a link resolves to its target by path arithmetic") }
        let encodedSource = components(source).map(percentEncoded).joined(separator: "/")
        guard let page = WebURL("http://mirror.invalid/" + encodedSource), let resolved = page.resolve(link) else {
            return violation("a link resolves as a URL against its source file")
        }
        let segments = resolved.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let decoded = segments.map { percentDecoded($0) ?? "\u{FFFD}invalid" }
        guard resolved.host == "mirror.invalid", decoded.joined(separator: "/") == target else {
            return violation("a link resolves to its target through WebURL resolution (got \(resolved.string))")
        }
        return nil
    }

    static func percentDecoded(_ segment: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(segment.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func percentEncoded(_ component: String) -> String {
        var out = ""
        for byte in component.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPaddedHex()
            }
        }
        return out
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
