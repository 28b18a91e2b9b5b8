extension TrustPolicyConfig {
    /// Every file the policy names (CA certificates, CRLs, pinned certificates), in order,
    /// members of a composite included.
    var files: [String] {
        switch self {
        case .default(let anchors, _): return anchors
        case .revocation(let crls, let anchors, _): return crls + anchors
        case .pinnedCertificates(let certificates, _, let anchors, _): return certificates + anchors
        case .publicKeys(_, _, let anchors, _): return anchors
        case .composite(let policies): return policies.flatMap(\.files)
        case .disabled: return []
        }
    }

    /// The same policy with each file path replaced by `transform(path)` (the config as another
    /// machine sees it).
    func mappingFiles(_ transform: (String) -> String) -> TrustPolicyConfig {
        switch self {
        case .default(let anchors, let verifyHost):
            return .default(anchors: anchors.map(transform), verifyHost: verifyHost)
        case .revocation(let crls, let anchors, let verifyHost):
            return .revocation(crls: crls.map(transform), anchors: anchors.map(transform), verifyHost: verifyHost)
        case .pinnedCertificates(let certificates, let requireChain, let anchors, let verifyHost):
            return .pinnedCertificates(certificates: certificates.map(transform), requireChain: requireChain,
                                       anchors: anchors.map(transform), verifyHost: verifyHost)
        case .publicKeys(let pins, let requireChain, let anchors, let verifyHost):
            return .publicKeys(pins: pins, requireChain: requireChain, anchors: anchors.map(transform), verifyHost: verifyHost)
        case .composite(let policies):
            return .composite(policies.map { $0.mappingFiles(transform) })
        case .disabled:
            return .disabled
        }
    }
}

extension TrustConfig {
    /// Every file of the default policy and of the per-host policies.
    var files: [String] { (defaultPolicy?.files ?? []) + hosts.flatMap(\.policy.files) }

    /// The same table with each file path replaced by `transform(path)`.
    func mappingFiles(_ transform: (String) -> String) -> TrustConfig {
        TrustConfig(defaultPolicy: defaultPolicy?.mappingFiles(transform),
                    hosts: hosts.map { HostPolicy(pattern: $0.pattern, policy: $0.policy.mappingFiles(transform)) })
    }
}
