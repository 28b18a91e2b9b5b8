import MirrorCore

import MirrorTLS

extension IdentityConfig {
    /// The keys of an identity object.
    static let keys = ["cert", "type", "key", "module", "password", "hosts"]

    /// Decodes a site's `identity`. Files are not opened: the identity loader reports on them.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys, expected: "an identity object with \"cert\"")
        certificate = try Self.fileOrURI(object.required("cert"), expected: "a certificate file path or a pkcs11: URI")
        type = nil
        if let typeNode = object.optional("type") {
            let text = try typeNode.string("\"P12\" or \"PEM\"").uppercased()
            guard let parsed = CertificateType(rawValue: text == "PKCS12" ? "P12" : text) else { throw typeNode.invalid("\"P12\" or \"PEM\"") }
            type = parsed
        }
        key = try object.optional("key").map { node throws(ConfigError) in
            try Self.fileOrURI(node, expected: "a private key file path or a pkcs11: URI")
        }
        module = try object.optional("module")?.path("a PKCS#11 module file path")
        password = try object.optional("password").map { node throws(ConfigError) in
            try PasswordReference(decoding: node, allowPrompt: true)
        }
        hosts = []
        if let hostsNode = object.optional("hosts") {
            for hostNode in try hostsNode.array(of: "host patterns") {
                let expected = "a host pattern: host, host:port or *.domain"
                guard let host = try? HostPattern(parsing: try hostNode.string(expected)) else { throw hostNode.invalid(expected) }
                hosts.append(host.description)
            }
        }
    }

    /// A path (resolved against the config's folder), or a `pkcs11:` URI kept as it is and
    /// checked now, so that a malformed URI or one carrying a PIN is a config error.
    private static func fileOrURI(_ node: ConfigNode, expected: String) throws(ConfigError) -> String {
        let text = try node.string(expected)
        guard PKCS11URI.isURI(text) else { return try node.path(expected) }
        do {
            _ = try PKCS11URI(parsing: text)
        } catch {
            throw node.invalid("a PKCS#11 URI without a PIN (\(error.summary))", found: "a URI")
        }
        return text
    }
}
