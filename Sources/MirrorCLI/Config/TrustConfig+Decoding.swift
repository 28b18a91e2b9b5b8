import MirrorCore

extension TrustConfig {
    /// The keys of a `trust` object.
    static let keys = ["default", "hosts"]

    /// Decodes a site's `trust`. With `hosts` but no `default`, unknown hosts fail closed;
    /// with neither, the system default applies to every host.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys, expected: "a trust object with \"default\" and/or \"hosts\"")
        hosts = []
        if let hostsNode = object.optional("hosts") {
            guard case .object(let members) = hostsNode.value else {
                throw hostsNode.invalid("an object mapping host patterns to trust policies")
            }
            for member in members where !member.key.hasPrefix("$") {
                let policyNode = ConfigNode(value: member.value, path: hostsNode.path.key(member.key), source: node.source)
                let pattern: HostPattern
                do {
                    pattern = try HostPattern(parsing: member.key, allowPort: false)
                } catch {
                    throw policyNode.invalid("a host name or *.domain as the key (no scheme, port or path)",
                                             found: ConfigJSON.quoted(member.key))
                }
                hosts.append(HostPolicy(pattern: pattern.description, policy: try TrustPolicyConfig(decoding: policyNode)))
            }
        }
        if let defaultNode = object.optional("default") {
            defaultPolicy = try TrustPolicyConfig(decoding: defaultNode)
        } else {
            defaultPolicy = object.has("hosts") ? nil : .systemDefault
        }
    }
}
