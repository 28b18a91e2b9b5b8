import Foundation

/// Where a config file lives: its name for messages and the folder that relative paths in it
/// resolve against.
struct ConfigSource: Sendable {
    /// The file as the user named it; every error starts with it.
    let file: String
    /// The absolute folder holding the file.
    let directory: String

    /// `path` made absolute: `~/` is the home folder, a relative path is taken from ``directory``.
    func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            return home + path.dropFirst()
        }
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }
}

/// One value of the config and where it sits: the typed reader every decoder uses.
///
/// Each accessor either returns the value in the asked-for type or throws
/// ``ConfigError/invalid(file:fieldPath:expected:found:)`` naming this node's path, what was
/// expected and what was found.
struct ConfigNode {
    let value: ConfigJSON
    let path: FieldPath
    let source: ConfigSource

    /// An error at this node.
    func invalid(_ expected: String, found: String? = nil) -> ConfigError {
        .invalid(file: source.file, fieldPath: path.description, expected: expected, found: found ?? value.foundDescription)
    }

    /// The node's members, checked against the known keys (keys starting with `$` are ignored).
    ///
    /// - Throws: ``ConfigError/invalid(file:fieldPath:expected:found:)`` when it is not an
    ///   object, ``ConfigError/unknownKey(file:fieldPath:key:suggestion:)`` for a key not in `keys`.
    func object(keys: [String], expected: String = "an object") throws(ConfigError) -> ConfigObject {
        guard case .object(let members) = value else { throw invalid(expected) }
        for member in members where !member.key.hasPrefix("$") && !keys.contains(member.key) {
            throw .unknownKey(file: source.file, fieldPath: path.description, key: member.key,
                              suggestion: KeySuggestion.closest(to: member.key, among: keys))
        }
        return ConfigObject(node: self, members: members.filter { !$0.key.hasPrefix("$") })
    }

    /// The elements of an array, each with its path.
    ///
    /// - Parameter nonEmpty: refuse an empty array.
    func array(of what: String, nonEmpty: Bool = false) throws(ConfigError) -> [ConfigNode] {
        let expected = nonEmpty ? "an array of at least one \(what)" : "an array of \(what)"
        guard case .array(let items) = value else { throw invalid(expected) }
        if nonEmpty && items.isEmpty { throw invalid(expected) }
        return items.enumerated().map { ConfigNode(value: $0.element, path: path.index($0.offset), source: source) }
    }

    /// A string; `nonEmpty` refuses `""`.
    func string(_ expected: String = "a string", nonEmpty: Bool = true) throws(ConfigError) -> String {
        guard case .string(let text) = value, !nonEmpty || !text.isEmpty else { throw invalid(expected) }
        return text
    }

    /// `true` or `false`.
    func bool() throws(ConfigError) -> Bool {
        guard case .bool(let flag) = value else { throw invalid("true or false") }
        return flag
    }

    /// A whole number within `range`.
    func int(in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        let expected = range.upperBound == Int.max
            ? "a whole number ≥ \(range.lowerBound)" : "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let text) = value, let number = Int(text) ?? Self.wholeDouble(text), range.contains(number) else {
            throw invalid(expected)
        }
        return number
    }

    /// A positive number (fractions allowed) of at least `minimum`.
    func double(atLeast minimum: Double) throws(ConfigError) -> Double {
        guard case .number(let text) = value, let number = Double(text), number.isFinite, number >= minimum else {
            throw invalid("a number ≥ \(ConfigQuantity.formatNumber(minimum))")
        }
        return number
    }

    /// A size: a number of bytes or a string such as `"256MiB"`, `"2GiB"`, `"500KB"`.
    func size(atLeast minimum: Int64 = 0) throws(ConfigError) -> Int64 {
        let expected = "a size in bytes or a string like \"256MiB\", \"2GiB\", \"500KB\"" + (minimum > 0 ? " (at least \(minimum) bytes)" : "")
        let bytes: Int64?
        switch value {
        case .number(let text): bytes = Int64(text) ?? Self.wholeDouble(text).map(Int64.init)
        case .string(let text): bytes = ConfigQuantity.bytes(text)
        default: bytes = nil
        }
        guard let bytes, bytes >= minimum else { throw invalid(expected) }
        return bytes
    }

    /// A duration: a number of seconds or a string such as `"30s"`, `"10m"`, `"6h"`, `"1d"`.
    func duration(positive: Bool = false) throws(ConfigError) -> Double {
        let expected = "a duration in seconds or a string like \"30s\", \"10m\", \"6h\", \"1d\"" + (positive ? " (more than 0)" : "")
        let seconds: Double?
        switch value {
        case .number(let text): seconds = Double(text).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        case .string(let text): seconds = ConfigQuantity.seconds(text)
        default: seconds = nil
        }
        guard let seconds, !positive || seconds > 0 else { throw invalid(expected) }
        return seconds
    }

    /// A file path, made absolute against the config's folder (not checked on disk).
    func path(_ expected: String = "a file path") throws(ConfigError) -> String {
        let text = try string(expected)
        guard !text.contains("\0") else { throw invalid(expected) }
        return source.resolve(text)
    }

    /// A path to a file that must exist and be readable now (CA, CRL and pinned certificates).
    ///
    /// - Throws: ``ConfigError/invalid(file:fieldPath:expected:found:)`` naming the resolved
    ///   path and the system's reason.
    func readableFile() throws(ConfigError) -> String {
        let resolved = try path("a path to a readable file")
        var status = stat()
        if stat(resolved, &status) != 0 {
            throw invalid("a readable file", found: "\(ConfigJSON.quoted(resolved)) (\(String(cString: strerror(errno))))")
        }
        if status.st_mode & S_IFMT != S_IFREG {
            throw invalid("a readable file", found: "\(ConfigJSON.quoted(resolved)) (not a regular file)")
        }
        if access(resolved, R_OK) != 0 {
            throw invalid("a readable file", found: "\(ConfigJSON.quoted(resolved)) (\(String(cString: strerror(errno))))")
        }
        return resolved
    }

    /// The node is JSON `null`.
    var isNull: Bool { value == .null }

    private static func wholeDouble(_ text: String) -> Int? {
        guard let number = Double(text), number.isFinite, number == number.rounded(), abs(number) < 9e15 else { return nil }
        return Int(number)
    }
}
