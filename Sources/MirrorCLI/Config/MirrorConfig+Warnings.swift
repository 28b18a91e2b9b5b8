extension MirrorConfig {
    /// The dangerous settings in the config, one line each, starting with the field path.
    func computeWarnings() -> [String] {
        var warnings: [String] = []
        for (index, site) in sites.enumerated() {
            let trust = FieldPath.root.key("sites").index(index).key("trust")
            if let policy = site.trust.defaultPolicy {
                Self.collectDisabled(policy, at: trust.key("default"), site: site, into: &warnings)
            }
            for row in site.trust.hosts {
                Self.collectDisabled(row.policy, at: trust.key("hosts").key(row.pattern), site: site, into: &warnings)
            }
        }
        if serve.allowRemote && !serve.bindsLoopback && serve.tokenFile == nil {
            warnings.append("serve.allowRemote: the mirrors are served to the network on \(serve.bind):\(serve.port) with no tokenFile; anyone who can reach the port can read them")
        }
        return warnings
    }

    private static func collectDisabled(_ policy: TrustPolicyConfig, at path: FieldPath, site: SiteConfig, into warnings: inout [String]) {
        switch policy {
        case .disabled:
            let identity = site.identity == nil ? "" : " and receive your client certificate"
            warnings.append("\(path): server verification is DISABLED for site \"\(site.name)\": any server on the network can impersonate these hosts\(identity)")
        case .composite(let members):
            for (index, member) in members.enumerated() {
                collectDisabled(member, at: path.key("policies").index(index), site: site, into: &warnings)
            }
        default:
            break
        }
    }
}
