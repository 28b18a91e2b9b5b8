/// The standard policy: the chain must verify against the anchors and the leaf must name the host.
public struct DefaultTrustEvaluator: ServerTrustEvaluating {
    /// Where the chain must lead.
    public let anchors: TrustAnchors
    /// Whether the leaf must name the host (on unless explicitly turned off).
    public let validateHost: Bool
    let verifier: ChainVerifier

    public var name: String { "default" }

    /// Creates the policy.
    ///
    /// - Parameters:
    ///   - anchors: the trust anchors; the system store by default.
    ///   - validateHost: check the host name against the leaf; on by default.
    public init(anchors: TrustAnchors = .system, validateHost: Bool = true) {
        self.anchors = anchors
        self.validateHost = validateHost
        self.verifier = ChainVerifier(anchors: anchors)
    }

    /// Loads the trust anchors (and CRLs) now (``ServerTrustEvaluating/prepare()``).
    public func prepare() { verifier.prepare() }

    /// Accepts a chain that verifies and (unless turned off) names the host.
    ///
    /// - Throws: ``TrustError/noCertificates(policy:host:)``, ``TrustError/chainInvalid(policy:host:code:reason:depth:)``,
    ///   ``TrustError/hostnameMismatch(policy:host:names:)``, or an anchor-loading error.
    public func evaluate(_ trust: ServerTrust) throws(TrustError) {
        _ = try TrustChecks.verifiedChain(of: trust, verifier: verifier, policy: name)
        if validateHost { try TrustChecks.requireHost(trust, policy: name) }
    }
}
