/// A Kubernetes manifest as a value: maps keep their order, so the YAML reads as written.
///
/// ``yaml(indent:)`` writes block-style YAML that YAML 1.1 and 1.2 parsers (kubectl's, PyYAML)
/// read back to the same value: every string is double-quoted with JSON escapes, except text of
/// several lines, which becomes a literal block (`|`, `|-` or `|+` so that its final newlines
/// survive exactly). Numbers and booleans are written bare.
public indirect enum ManifestValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case list([ManifestValue])
    case map([Member])

    /// One key and its value in a ``map(_:)``.
    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: ManifestValue
        public init(_ key: String, _ value: ManifestValue) {
            self.key = key
            self.value = value
        }
    }

    /// A map from `(key, value)` pairs; a `nil` value leaves its key out.
    public static func object(_ pairs: [(String, ManifestValue?)]) -> ManifestValue {
        .map(pairs.compactMap { pair in pair.1.map { Member(pair.0, $0) } })
    }

    /// The value at `key` of a map, for tests and for filling in values.
    public subscript(key: String) -> ManifestValue? {
        guard case .map(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The YAML text of the value as a document body (ends with a newline).
    public func yaml() -> String {
        switch self {
        case .map(let members) where !members.isEmpty: return Self.lines(members: members, indent: 0).joined(separator: "\n") + "\n"
        case .list(let items) where !items.isEmpty: return Self.lines(items: items, indent: 0).joined(separator: "\n") + "\n"
        default: return Self.inline(self) + "\n"
        }
    }

    private static func lines(members: [Member], indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for member in members {
            let key = pad + scalar(member.key) + ":"
            switch member.value {
            case .map(let nested) where !nested.isEmpty:
                lines.append(key)
                lines += Self.lines(members: nested, indent: indent + 2)
            case .list(let items) where !items.isEmpty:
                lines.append(key)
                lines += Self.lines(items: items, indent: indent)
            case .string(let text) where isBlock(text):
                lines.append(key + " " + blockHeader(text))
                lines += blockLines(text, indent: indent + 2)
            default:
                lines.append(key + " " + inline(member.value))
            }
        }
        return lines
    }

    private static func lines(items: [ManifestValue], indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for item in items {
            switch item {
            case .map(let members) where !members.isEmpty:
                // The first member shares the dash's line; the others line up under it.
                var nested = Self.lines(members: members, indent: indent + 2)
                nested[0] = pad + "- " + nested[0].dropFirst(indent + 2)
                lines += nested
            case .list(let inner) where !inner.isEmpty:
                lines.append(pad + "-")
                lines += Self.lines(items: inner, indent: indent + 2)
            case .string(let text) where isBlock(text):
                lines.append(pad + "- " + blockHeader(text))
                lines += blockLines(text, indent: indent + 2)
            default:
                lines.append(pad + "- " + inline(item))
            }
        }
        return lines
    }

    /// A value on one line: scalars, `{}` and `[]`.
    private static func inline(_ value: ManifestValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .list(let items): return "[" + items.map(inline).joined(separator: ", ") + "]"
        case .map(let members): return "{" + members.map { scalar($0.key) + ": " + inline($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// A key: bare when it is a plain word YAML cannot take for anything else, else quoted.
    private static func scalar(_ key: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./")
        let reserved: Set = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]
        guard let first = key.first, first.isLetter, key.allSatisfy({ plain.contains($0) }), !reserved.contains(key.lowercased()) else {
            return quoted(key)
        }
        return key
    }

    /// A double-quoted YAML string with JSON's escapes (a JSON string is a YAML string).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar.value == 0xFEFF || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whether text is written as a literal block: several lines of printable text whose lines
    /// carry no trailing blanks (which a block would keep but a reader could not see) and whose
    /// first line does not start with a blank (which would need an indentation indicator).
    static func isBlock(_ text: String) -> Bool {
        guard text.contains("\n"), let first = text.first, first != " ", first != "\t", first != "\n" else { return false }
        for scalar in text.unicodeScalars where scalar != "\n" && scalar != "\t" {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0xFEFF
                || scalar.value == 0x2028 || scalar.value == 0x2029 {
                return false
            }
        }
        return !text.split(separator: "\n", omittingEmptySubsequences: false).contains { $0.hasSuffix(" ") || $0.hasSuffix("\t") }
    }

    /// `|` keeps one final newline, `|-` none, `|+` all of them.
    private static func blockHeader(_ text: String) -> String {
        if !text.hasSuffix("\n") { return "|-" }
        return text.hasSuffix("\n\n") ? "|+" : "|"
    }

    private static func blockLines(_ text: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines.map { $0.isEmpty ? "" : pad + $0 }
    }
}
