import MirrorCore

import MirrorTLS

extension IdentityConfig {
    /// The keys of an identity object.
    static let keys = ["cert", "type", "key", "password", "hosts"]

    /// Decodes a site's `identity`. Files are not opened: the identity loader reports on them.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys, expected: "an identity object with \"cert\"")
        certificate = try object.required("cert").path("a certificate file path")
        type = nil
        if let typeNode = object.optional("type") {
            let text = try typeNode.string("\"P12\" or \"PEM\"").uppercased()
            guard let parsed = CertificateType(rawValue: text == "PKCS12" ? "P12" : text) else { throw typeNode.invalid("\"P12\" or \"PEM\"") }
            type = parsed
        }
        key = try object.optional("key")?.path("a private key file path")
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
}
