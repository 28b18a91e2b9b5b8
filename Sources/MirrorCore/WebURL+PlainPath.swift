// A shortcut of reference resolution for the most common kind of reference: a plain relative
// path such as `p00705.html`, `../../s04/t02/p00865.html` or `/css/main.css`.

extension WebURL {
    /// ``resolving(_:maximumLength:)`` of a reference that is a plain path, without its general
    /// parse; `nil` for any other reference, which then takes the general way.
    ///
    /// A plain path has only unreserved bytes and slashes (`A–Z a–z 0–9 - . _ ~ /`): no scheme,
    /// query, fragment, percent sign, backslash, space or control byte. It may start with `/`
    /// (not `//`) or with `./` and `../` steps; after those no segment is `.` or `..` and none is
    /// empty. Such a reference needs no normalising: its result is this URL's folder (or root),
    /// less one segment per `../`, followed by the rest as it is. A test compares the two ways
    /// on generated references.
    func resolvingPlainPath(_ reference: String, maximumLength: Int) -> WebURL? {
        var rest = Substring(reference).utf8
        guard !rest.isEmpty, rest.count <= maximumLength,
              rest.allSatisfy({ ASCII.isUnreserved($0) || $0 == UInt8(ascii: "/") }) else { return nil }
        var folder = path.utf8[...]
        if rest.first == UInt8(ascii: "/") {
            rest = rest.dropFirst()
            guard rest.first != UInt8(ascii: "/") else { return nil }  // a network path
            folder = folder.prefix(1)
        } else {
            // The base path up to and including its last slash (it always starts with one).
            guard let lastSlash = folder.lastIndex(of: UInt8(ascii: "/")) else { return nil }
            folder = folder[...lastSlash]
            while true {
                if rest.starts(with: "./".utf8) {
                    rest = rest.dropFirst(2)
                } else if rest.starts(with: "../".utf8) {
                    rest = rest.dropFirst(3)
                    // One segment up; the root stays the root (RFC 3986 §5.2.4).
                    let inner = folder.dropLast()
                    if let slash = inner.lastIndex(of: UInt8(ascii: "/")) { folder = folder[...slash] }
                } else {
                    break
                }
            }
        }
        // What remains is taken as it is: no dot segment, no empty segment (a trailing slash
        // is not a segment of its own).
        var segmentLength = 0
        var dots = 0
        for byte in rest {
            if byte == UInt8(ascii: "/") {
                guard segmentLength > 0, dots < segmentLength || segmentLength > 2 else { return nil }
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        guard segmentLength == 0 || dots < segmentLength || segmentLength > 2 else { return nil }
        guard originLength + folder.count + rest.count <= maximumLength else { return nil }
        var newPath = String(decoding: folder, as: UTF8.self)
        newPath.append(contentsOf: Substring(rest))
        return WebURL(scheme: scheme, host: host, port: port, path: newPath, query: nil, fragment: nil)
    }
}
