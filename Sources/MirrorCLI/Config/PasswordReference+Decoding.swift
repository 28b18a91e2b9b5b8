extension PasswordReference {
    /// The reference forms, for "expected …".
    static func expectedForms(allowPrompt: Bool) -> String {
        "{\"env\": \"VAR\"} or {\"file\": \"path\"}" + (allowPrompt ? " or \"prompt\"" : "")
    }

    /// Decodes `{"env": "VAR"}`, `{"file": "path"}` or (where allowed) `"prompt"`.
    ///
    /// - Throws: ``ConfigError/literalSecret(file:fieldPath:)`` for any other string (the
    ///   string is not repeated in the error), ``ConfigError/invalid(file:fieldPath:expected:found:)``
    ///   for other shapes.
    init(decoding node: ConfigNode, allowPrompt: Bool) throws(ConfigError) {
        let expected = Self.expectedForms(allowPrompt: allowPrompt)
        switch node.value {
        case .string("prompt") where allowPrompt:
            self = .prompt
            return
        case .string:
            throw .literalSecret(file: node.source.file, fieldPath: node.path.description)
        case .object(let members) where members.filter({ !$0.key.hasPrefix("$") }).count != 1:
            throw node.invalid("exactly one of \"env\" or \"file\"", found: "keys " + members.map { ConfigJSON.quoted($0.key) }.joined(separator: ", "))
        case .object:
            break
        default:
            throw node.invalid(expected)
        }
        let object = try node.object(keys: ["env", "file"], expected: expected)
        if let variable = object.optional("env") {
            let name = try variable.string("an environment variable name")
            let valid = name.unicodeScalars.enumerated().allSatisfy { index, scalar in
                ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || scalar == "_" || (index > 0 && ("0"..."9").contains(scalar))
            }
            guard valid else { throw variable.invalid("an environment variable name ([A-Za-z_][A-Za-z0-9_]*)") }
            self = .environment(name)
        } else {
            self = .file(try object.required("file").path("a password file path"))
        }
    }
}
