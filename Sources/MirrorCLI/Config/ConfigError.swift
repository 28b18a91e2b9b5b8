import MirrorCore

/// Why a config file could not be used. Every summary starts with the file name and, for a
/// field, its path (`sites[0].trust.hosts["cdn.example.com"].pins[1]`), then says what was
/// expected and what was found.
public enum ConfigError: DiagnosableError, Equatable {
    /// The file could not be opened or read.
    case cannotRead(path: String, reason: String)
    /// The file is not well-formed JSON; `line` and `column` are 1-based and point at the problem.
    case invalidJSON(path: String, line: Int, column: Int, reason: String)
    /// A field has the wrong type or an unacceptable value.
    case invalid(file: String, fieldPath: String, expected: String, found: String)
    /// An object has a key the schema does not know; `suggestion` is the closest known key.
    case unknownKey(file: String, fieldPath: String, key: String, suggestion: String?)
    /// A required field is absent.
    case missing(file: String, fieldPath: String)
    /// A secret (password, credential header) was written into the config instead of referenced.
    /// The value itself is never kept.
    case literalSecret(file: String, fieldPath: String)

    /// Always ``ErrorCategory/usage``: the user's config is wrong.
    public var category: ErrorCategory { .usage }

    /// `FILE: FIELD: expected …, found …` (or the file and line for JSON syntax errors).
    public var summary: String {
        switch self {
        case .cannotRead(let path, let reason):
            return "\(path): cannot read the config file: \(reason)"
        case .invalidJSON(let path, let line, let column, let reason):
            return "\(path): line \(line), column \(column): not valid JSON: \(reason)"
        case .invalid(let file, let fieldPath, let expected, let found):
            return "\(file): \(Self.field(fieldPath)): expected \(expected), found \(found)"
        case .unknownKey(let file, let fieldPath, let key, let suggestion):
            let guess = suggestion.map { "; did you mean \(ConfigJSON.quoted($0))?" } ?? ""
            return "\(file): \(Self.field(Self.join(fieldPath, key))): unknown key \(ConfigJSON.quoted(key))\(guess)"
        case .missing(let file, let fieldPath):
            return "\(file): \(Self.field(fieldPath)): required but missing"
        case .literalSecret(let file, let fieldPath):
            return "\(file): \(Self.field(fieldPath)): passwords are never stored in the config; use {\"env\": \"VAR\"} or {\"file\": \"path\"}"
        }
    }

    /// What to do about it.
    public var hint: String {
        switch self {
        case .cannotRead:
            return "give the config with --config FILE, or run in the folder that holds config.json"
        case .invalidJSON:
            return "config.json is strict JSON: no comments or trailing commas (use \"$comment\" keys for notes)"
        case .invalid, .missing:
            return "see the config reference in README.md (section \"config.json reference\")"
        case .unknownKey:
            return "keys are case-sensitive; keys starting with $ are ignored and can hold comments"
        case .literalSecret:
            return "put the secret in an environment variable or a file readable only by you (chmod 600) and reference it"
        }
    }

    /// The field path as shown, with the top level named.
    private static func field(_ path: String) -> String {
        path.isEmpty ? "(top level)" : path
    }

    private static func join(_ path: String, _ key: String) -> String {
        FieldPath.appending(key: key, to: path)
    }
}
