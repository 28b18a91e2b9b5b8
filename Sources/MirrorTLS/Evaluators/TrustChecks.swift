import COpenSSL
import Foundation

/// The building blocks every evaluator shares: leaf present, chain verifies, host matches.
enum TrustChecks {
    /// The leaf, or ``TrustError/noCertificates(policy:host:)``.
    static func leaf(of trust: ServerTrust, policy: String) throws(TrustError) -> CertificateInfo {
        guard let leaf = trust.leaf else { throw .noCertificates(policy: policy, host: trust.host) }
        return leaf
    }

    /// The verified chain, or the refusal: ``TrustError/revoked(policy:host:subject:source:)`` for
    /// `X509_V_ERR_CERT_REVOKED`, otherwise ``TrustError/chainInvalid(policy:host:code:reason:depth:)``.
    static func verifiedChain(
        of trust: ServerTrust, verifier: ChainVerifier, policy: String, checkCRLs: Bool = false
    ) throws(TrustError) -> [CertificateInfo] {
        _ = try leaf(of: trust, policy: policy)
        switch try verifier.verify(trust.chain, at: trust.verificationTime, checkCRLs: checkCRLs) {
        case let .verified(chain):
            return chain
        case let .failed(code, reason, depth):
            if code == X509_V_ERR_CERT_REVOKED {
                let index = Int(depth)
                let subject = trust.chain.indices.contains(index) ? trust.chain[index].subject : "depth \(depth)"
                throw .revoked(policy: policy, host: trust.host, subject: subject, source: "CRL")
            }
            throw .chainInvalid(policy: policy, host: trust.host, code: code, reason: reason, depth: depth)
        }
    }

    /// The verified chain, or nil when it does not verify (for pinning without `requireChain`).
    /// Problems loading the anchors still throw: a broken configuration is reported, not ignored.
    static func verifiedChainIfAny(of trust: ServerTrust, verifier: ChainVerifier) throws(TrustError) -> [CertificateInfo]? {
        guard !trust.chain.isEmpty else { return nil }
        if case let .verified(chain) = try verifier.verify(trust.chain, at: trust.verificationTime) { return chain }
        return nil
    }

    /// Throws ``TrustError/hostnameMismatch(policy:host:names:)`` unless the leaf names the host.
    static func requireHost(_ trust: ServerTrust, policy: String) throws(TrustError) {
        let leaf = try leaf(of: trust, policy: policy)
        guard HostnameValidation.matches(leaf, host: trust.host) else {
            throw .hostnameMismatch(policy: policy, host: trust.host, names: leaf.subjectAlternativeNames)
        }
    }
}
