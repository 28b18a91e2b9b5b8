/// Certificate pinning: the server must present a certificate whose DER SHA-256 is pinned.
///
/// Matching rule: the LEAF may match a pin on its own (a pinned self-signed server passes with
/// `requireChain: false`). Any other certificate counts only when the chain verifies against
/// `anchors`, and then only as part of the verified chain: in an unverified chain a matching CA
/// certificate proves nothing, since anyone can append a public CA certificate to their chain.
public struct PinnedCertificatesTrustEvaluator: ServerTrustEvaluating {
    /// The pinned certificates.
    public let certificates: [CertificateInfo]
    /// Whether the chain must also verify against `anchors`.
    public let requireChain: Bool
    /// Where the chain must lead, when it is verified.
    public let anchors: TrustAnchors
    /// Whether the leaf must name the host (on unless explicitly turned off).
    public let validateHost: Bool
    private let verifier: ChainVerifier

    public var name: String { "pinned-certificates" }

    /// Creates the policy.
    ///
    /// - Parameters:
    ///   - certificates: the certificates to pin (leaf, intermediate or root).
    ///   - requireChain: also demand that the chain verifies; off by default.
    ///   - anchors: the trust anchors; the system store by default.
    ///   - validateHost: check the host name against the leaf; on by default.
    public init(certificates: [CertificateInfo], requireChain: Bool = false,
                anchors: TrustAnchors = .system, validateHost: Bool = true) {
        self.certificates = certificates
        self.requireChain = requireChain
        self.anchors = anchors
        self.validateHost = validateHost
        self.verifier = ChainVerifier(anchors: anchors)
    }

    /// Loads the trust anchors (and CRLs) now (``ServerTrustEvaluating/prepare()``).
    public func prepare() { verifier.prepare() }

    /// Accepts the trust when a pinned certificate matches under the rule above.
    ///
    /// - Throws: ``TrustError/certificatePinMismatch(policy:host:pinned:presented:)``,
    ///   ``TrustError/chainInvalid(policy:host:code:reason:depth:)`` (with `requireChain`),
    ///   ``TrustError/hostnameMismatch(policy:host:names:)``, ``TrustError/noCertificates(policy:host:)``.
    public func evaluate(_ trust: ServerTrust) throws(TrustError) {
        let leaf = try TrustChecks.leaf(of: trust, policy: name)
        let verified: [CertificateInfo]? = requireChain
            ? try TrustChecks.verifiedChain(of: trust, verifier: verifier, policy: name)
            : try TrustChecks.verifiedChainIfAny(of: trust, verifier: verifier)
        let pinned = Set(certificates.map(\.sha256))
        let candidates = [leaf] + (verified ?? [])
        guard candidates.contains(where: { pinned.contains($0.sha256) }) else {
            throw .certificatePinMismatch(
                policy: name, host: trust.host, pinned: certificates.map(\.sha256), presented: trust.chain.map(\.sha256))
        }
        if validateHost { try TrustChecks.requireHost(trust, policy: name) }
    }
}
