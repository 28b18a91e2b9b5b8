/// A parsed JSON value that keeps what `JSONSerialization` loses: the order of object members,
/// the exact text of numbers, and the difference between `true` and `1`.
///
/// The config reader walks this tree to give precise errors; the redacted dump writes it back.
enum ConfigJSON: Sendable, Equatable {
    case object([Member])
    case array([ConfigJSON])
    case string(String)
    /// A number, as written (`1`, `-2.5e3`); readers convert it to the type they need.
    case number(String)
    case bool(Bool)
    case null

    /// One `"key": value` pair of an object, in document order.
    struct Member: Sendable, Equatable {
        var key: String
        var value: ConfigJSON

        init(_ key: String, _ value: ConfigJSON) {
            self.key = key
            self.value = value
        }
    }

    /// A short description of the value for "found …" in error messages. Strings are quoted
    /// and cut at 60 characters; objects and arrays are described, not printed.
    var foundDescription: String {
        switch self {
        case .object(let members): return members.isEmpty ? "an empty object" : "an object"
        case .array(let items): return items.isEmpty ? "an empty array" : "an array of \(items.count)"
        case .string(let text): return ConfigJSON.quoted(text.count > 60 ? String(text.prefix(57)) + "..." : text)
        case .number(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    /// `text` as a JSON string literal, with the escapes JSON requires.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Pretty-printed JSON with two-space indentation and members in their stored order.
    func pretty(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let lines = members.map { inner + ConfigJSON.quoted($0.key) + ": " + $0.value.pretty(indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            if items.allSatisfy(\.isScalar) {
                return "[" + items.map { $0.pretty() }.joined(separator: ", ") + "]"
            }
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .string(let text): return ConfigJSON.quoted(text)
        case .number(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: return false
        default: return true
        }
    }
}
