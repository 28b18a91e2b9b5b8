import MirrorTLS

extension TrustPolicyConfig {
    /// The MirrorTLS evaluator this policy describes, loading pinned certificates now.
    ///
    /// CA and CRL files are read by the evaluators themselves when they first verify a chain.
    /// - Returns: the evaluator; a ``CompositeTrustEvaluator`` for `composite`, and a
    ///   ``DisabledTrustEvaluator`` (NO VERIFICATION) for `disabled`.
    /// - Throws: the ``TrustError`` of ``CertificateInfo/loadPEMFile(_:)`` when a pinned
    ///   certificate file cannot be read or parsed.
    public func makeEvaluator() throws(TrustError) -> any ServerTrustEvaluating {
        switch self {
        case .default(let anchors, let verifyHost):
            return DefaultTrustEvaluator(anchors: Self.trustAnchors(anchors), validateHost: verifyHost)
        case .revocation(let crls, let anchors, let verifyHost):
            return RevocationTrustEvaluator(crlFiles: crls, anchors: Self.trustAnchors(anchors), validateHost: verifyHost)
        case .pinnedCertificates(let files, let requireChain, let anchors, let verifyHost):
            var certificates: [CertificateInfo] = []
            for file in files { certificates += try CertificateInfo.loadPEMFile(file) }
            return PinnedCertificatesTrustEvaluator(
                certificates: certificates, requireChain: requireChain, anchors: Self.trustAnchors(anchors), validateHost: verifyHost)
        case .publicKeys(let pins, let requireChain, let anchors, let verifyHost):
            return PublicKeysTrustEvaluator(pins: pins, requireChain: requireChain, anchors: Self.trustAnchors(anchors), validateHost: verifyHost)
        case .composite(let policies):
            var members: [any ServerTrustEvaluating] = []
            for policy in policies { members.append(try policy.makeEvaluator()) }
            return CompositeTrustEvaluator(members)
        case .disabled:
            return DisabledTrustEvaluator()
        }
    }

    /// No files means the system store; ``systemStoreAnchor`` adds it to the files.
    private static func trustAnchors(_ files: [String]) -> TrustAnchors {
        if files.isEmpty { return .system }
        if files.first == systemStoreAnchor { return .systemAndFiles(Array(files.dropFirst())) }
        return .files(files)
    }
}

extension TrustConfig {
    /// The host → evaluator table for MirrorTLS. Without a default policy, unknown hosts are
    /// refused (the manager fails closed).
    ///
    /// - Throws: what ``TrustPolicyConfig/makeEvaluator()`` throws for any row.
    public func makeManager() throws(TrustError) -> ServerTrustManager {
        var rows: [(pattern: String, evaluator: any ServerTrustEvaluating)] = []
        for row in hosts { rows.append((row.pattern, try row.policy.makeEvaluator())) }
        guard let defaultPolicy else { return ServerTrustManager(evaluators: rows, allHostsMustBeEvaluated: true) }
        return ServerTrustManager(evaluators: rows, fallback: try defaultPolicy.makeEvaluator())
    }
}
