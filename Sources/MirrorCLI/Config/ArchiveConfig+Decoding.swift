extension ArchiveConfig {
    /// The keys of an `archive` object.
    static let keys = ["enabled", "maxFileSize", "redactHeaders", "keepHeaders"]

    /// Decodes a site's `archive`; absent fields keep their defaults.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        if let flag = try object.optional("enabled")?.bool() { enabled = flag }
        if let size = try object.optional("maxFileSize")?.size(atLeast: Self.minimumFileSize) { maxFileSize = size }
        redactHeaders = try object.optional("redactHeaders").map { node throws(ConfigError) in try Self.names(node) } ?? []
        keepHeaders = try object.optional("keepHeaders").map { node throws(ConfigError) in try Self.names(node) } ?? []
    }

    /// An array of header names (HTTP tokens).
    private static func names(_ node: ConfigNode) throws(ConfigError) -> [String] {
        var names: [String] = []
        for item in try node.array(of: "header names") {
            let name = try item.string("a header name")
            guard ArchiveConfig.isToken(name) else { throw item.invalid("a header name (letters, digits and !#$%&'*+-.^_`|~)") }
            names.append(name)
        }
        return names
    }

    /// Whether `name` is an HTTP field name (RFC 9110 §5.1 token).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    var dumpJSON: ConfigJSON {
        .object([
            .init("enabled", .bool(enabled)),
            .init("maxFileSize", .number(String(maxFileSize))),
            .init("redactHeaders", .array(redactHeaders.map(ConfigJSON.string))),
            .init("keepHeaders", .array(keepHeaders.map(ConfigJSON.string))),
        ])
    }
}
