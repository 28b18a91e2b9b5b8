extension HTTPConfig {
    /// The keys of an `http` object.
    static let keys = ["headers", "userAgent", "cookies", "allowDowngrade"]

    /// Decodes a site's `http`. Credential headers (Authorization, Cookie, Proxy-Authorization)
    /// must be references.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        if let headersNode = object.optional("headers") {
            guard case .object(let members) = headersNode.value else { throw headersNode.invalid("an object of header names and values") }
            for member in members where !member.key.hasPrefix("$") {
                let valueNode = ConfigNode(value: member.value, path: headersNode.path.key(member.key), source: node.source)
                headers.append(try Self.header(name: member.key, node: valueNode))
            }
        }
        if let agent = object.optional("userAgent") {
            let expected = "a User-Agent string on one line"
            let text = try agent.string(expected)
            guard !text.contains(where: \.isNewline) else { throw agent.invalid(expected) }
            userAgent = text
        }
        cookies = try object.optional("cookies")?.path("a Netscape cookie file path")
        allowDowngrade = try object.optional("allowDowngrade")?.bool() ?? false
    }

    private static func header(name: String, node: ConfigNode) throws(ConfigError) -> Header {
        let tokenCharacters = "!#$%&'*+-.^_`|~"
        let validName = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || tokenCharacters.unicodeScalars.contains($0)
        }
        guard validName else { throw node.invalid("a header name made of letters, digits and !#$%&'*+-.^_`|~", found: ConfigJSON.quoted(name)) }
        let isCredential = credentialHeaders.contains(name.lowercased())
        switch node.value {
        case .string(let text):
            if isCredential { throw .literalSecret(file: node.source.file, fieldPath: node.path.description) }
            guard !text.contains(where: \.isNewline) else { throw node.invalid("a header value on one line") }
            return Header(name: name, value: .literal(text))
        case .object:
            return Header(name: name, value: .reference(try PasswordReference(decoding: node, allowPrompt: false)))
        default:
            throw node.invalid("a header value string, or \(PasswordReference.expectedForms(allowPrompt: false))")
        }
    }
}
