import Foundation

/// Public-key (SPKI) pinning with curl-style pins `sha256//BASE64`.
///
/// Same matching rule as ``PinnedCertificatesTrustEvaluator``: the leaf's key may match on its
/// own; other keys count only within a chain that verifies against `anchors`. Several pins may
/// be given, so a key can be rotated by pinning the old and the new one for a while.
public struct PublicKeysTrustEvaluator: ServerTrustEvaluating {
    /// The pins, each `sha256//` + base64 of the SHA-256 of a DER SubjectPublicKeyInfo.
    public let pins: [String]
    /// Whether the chain must also verify against `anchors`.
    public let requireChain: Bool
    /// Where the chain must lead, when it is verified.
    public let anchors: TrustAnchors
    /// Whether the leaf must name the host (on unless explicitly turned off).
    public let validateHost: Bool
    private let verifier: ChainVerifier

    public var name: String { "public-keys" }

    /// Creates the policy. Validate user input with ``parsePins(_:)`` first.
    ///
    /// - Parameters:
    ///   - pins: the accepted `sha256//BASE64` pins.
    ///   - requireChain: also demand that the chain verifies; off by default.
    ///   - anchors: the trust anchors; the system store by default.
    ///   - validateHost: check the host name against the leaf; on by default.
    public init(pins: [String], requireChain: Bool = false, anchors: TrustAnchors = .system, validateHost: Bool = true) {
        self.pins = pins
        self.requireChain = requireChain
        self.anchors = anchors
        self.validateHost = validateHost
        self.verifier = ChainVerifier(anchors: anchors)
    }

    /// Loads the trust anchors (and CRLs) now (``ServerTrustEvaluating/prepare()``).
    public func prepare() { verifier.prepare() }

    /// Accepts the trust when a pinned key matches under the rule above.
    ///
    /// - Throws: ``TrustError/publicKeyPinMismatch(policy:host:pinned:presented:)``,
    ///   ``TrustError/chainInvalid(policy:host:code:reason:depth:)`` (with `requireChain`),
    ///   ``TrustError/hostnameMismatch(policy:host:names:)``, ``TrustError/noCertificates(policy:host:)``.
    public func evaluate(_ trust: ServerTrust) throws(TrustError) {
        let leaf = try TrustChecks.leaf(of: trust, policy: name)
        let verified: [CertificateInfo]? = requireChain
            ? try TrustChecks.verifiedChain(of: trust, verifier: verifier, policy: name)
            : try TrustChecks.verifiedChainIfAny(of: trust, verifier: verifier)
        let accepted = Set(pins)
        let candidates = [leaf] + (verified ?? [])
        guard candidates.contains(where: { accepted.contains($0.pin) }) else {
            throw .publicKeyPinMismatch(policy: name, host: trust.host, pinned: pins, presented: trust.chain.map(\.pin))
        }
        if validateHost { try TrustChecks.requireHost(trust, policy: name) }
    }

    /// Parses curl's `CURLOPT_PINNEDPUBLICKEY` form: one or more `sha256//BASE64` separated by `;`.
    ///
    /// Whitespace around each pin is ignored. Each must use the `sha256//` prefix and decode to
    /// exactly 32 bytes of standard base64.
    ///
    /// - Parameter curlStyle: e.g. `sha256//AAAA…=;sha256//BBBB…=`.
    /// - Returns: the pins, in order, without duplicates.
    /// - Throws: ``TrustError/invalidPin(pin:reason:)`` naming the first bad pin and what is wrong.
    public static func parsePins(_ curlStyle: String) throws(TrustError) -> [String] {
        var pins: [String] = []
        let pieces = curlStyle.split(separator: ";", omittingEmptySubsequences: false)
        for piece in pieces {
            let pin = piece.trimmingCharacters(in: .whitespaces)
            guard !pin.isEmpty else { throw .invalidPin(pin: curlStyle, reason: "empty pin") }
            guard pin.hasPrefix("sha256//") else {
                throw .invalidPin(pin: pin, reason: "must start with sha256// (curl's public-key pin form)")
            }
            let encoded = String(pin.dropFirst("sha256//".count))
            guard let digest = Data(base64Encoded: encoded) else { throw .invalidPin(pin: pin, reason: "not valid base64") }
            guard digest.count == 32 else {
                throw .invalidPin(pin: pin, reason: "decodes to \(digest.count) bytes, a SHA-256 digest has 32")
            }
            if !pins.contains(pin) { pins.append(pin) }
        }
        return pins
    }
}
