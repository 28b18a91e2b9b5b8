/// The default policy plus revocation: CRLs for every certificate, and a stapled OCSP response
/// when the server sends one.
///
/// Fails closed: a CA of the chain with no CRL among `crlFiles` is a refusal
/// (`unable to get certificate CRL`), as is a stapled response that does not verify.
/// Without a stapled response only the CRLs are checked.
public struct RevocationTrustEvaluator: ServerTrustEvaluating {
    /// The CRL files (PEM or DER).
    public let crlFiles: [String]
    /// Where the chain must lead.
    public let anchors: TrustAnchors
    /// Whether the leaf must name the host (on unless explicitly turned off).
    public let validateHost: Bool
    private let verifier: ChainVerifier

    public var name: String { "revocation" }

    /// Creates the policy.
    ///
    /// - Parameters:
    ///   - crlFiles: CRLs covering every CA of the chains to accept.
    ///   - anchors: the trust anchors; the system store by default.
    ///   - validateHost: check the host name against the leaf; on by default.
    public init(crlFiles: [String], anchors: TrustAnchors = .system, validateHost: Bool = true) {
        self.crlFiles = crlFiles
        self.anchors = anchors
        self.validateHost = validateHost
        self.verifier = ChainVerifier(anchors: anchors, crlFiles: crlFiles)
    }

    /// Loads the trust anchors (and CRLs) now (``ServerTrustEvaluating/prepare()``).
    public func prepare() { verifier.prepare() }

    /// Accepts a chain that verifies with CRL checks, is not revoked by a stapled OCSP response,
    /// and (unless turned off) names the host.
    ///
    /// - Throws: ``TrustError/revoked(policy:host:subject:source:)``, ``TrustError/chainInvalid(policy:host:code:reason:depth:)``
    ///   (also for a missing CRL), ``TrustError/ocspInvalid(policy:host:reason:)``,
    ///   ``TrustError/hostnameMismatch(policy:host:names:)``, ``TrustError/unreadableFile(path:reason:)``.
    public func evaluate(_ trust: ServerTrust) throws(TrustError) {
        let verified = try TrustChecks.verifiedChain(of: trust, verifier: verifier, policy: name, checkCRLs: true)
        if let response = trust.stapledOCSPResponse {
            try OCSPStapleCheck(policy: name, host: trust.host)
                .check(response, verifiedChain: verified, store: verifier.loadStore(), at: trust.verificationTime)
        }
        if validateHost { try TrustChecks.requireHost(trust, policy: name) }
    }
}
