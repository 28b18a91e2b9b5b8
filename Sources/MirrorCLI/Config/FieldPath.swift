/// The location of a value inside the config, written as in JavaScript:
/// `sites[0].trust.hosts["cdn.example.com"].pins[1]`.
///
/// Keys that are plain identifiers are joined with a dot; any other key is written as a quoted
/// subscript so the path stays unambiguous.
struct FieldPath: Sendable, Equatable, CustomStringConvertible {
    /// The rendered path; empty for the top level.
    let description: String

    /// The top level of the file.
    static let root = FieldPath(description: "")

    /// The path of member `key` of the object at this path.
    func key(_ key: String) -> FieldPath {
        FieldPath(description: Self.appending(key: key, to: description))
    }

    /// The path of element `index` of the array at this path.
    func index(_ index: Int) -> FieldPath {
        FieldPath(description: description + "[\(index)]")
    }

    /// `path` extended by `key`, as a dotted member or a quoted subscript.
    static func appending(key: String, to path: String) -> String {
        if isIdentifier(key) { return path.isEmpty ? key : path + "." + key }
        return path + "[" + ConfigJSON.quoted(key) + "]"
    }

    private static func isIdentifier(_ key: String) -> Bool {
        func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "_" || s == "$" }
        guard let first = key.unicodeScalars.first, isLetter(first) else { return false }
        return key.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }
}
