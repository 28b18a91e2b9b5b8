import Foundation

/// The trust anchor a verified chain ended at, and where that anchor came from: one of the
/// `--cacert` files, or the system store (OpenSSL's default paths, which follow
/// `SSL_CERT_FILE` and `SSL_CERT_DIR` when they are set).
public struct VerifiedAnchor: Sendable, Equatable, Encodable {
    /// The anchor's subject.
    public var subject: String
    /// The anchor's SHA-256 fingerprint.
    public var sha256: String
    /// The file it was loaded from, or nil for the system store.
    public var file: String?

    /// `'CN=Corp Root' from corp.pem` or `'CN=Public Root' from the system store`.
    public var summary: String {
        "'\(subject)' from \(file ?? "the system store")"
    }
}

extension ChainVerifier {
    /// Which anchor a chain that ``verify(_:at:checkCRLs:)`` verified ends at.
    ///
    /// A file anchor is recognised by its DER among the certificates of the ``anchors``
    /// files; any other anchor of a verified chain came from the system store.
    ///
    /// - Parameter verified: the verified chain, leaf first, anchor last.
    /// - Returns: the anchor, or nil for an empty chain.
    public func anchor(of verified: [CertificateInfo]) -> VerifiedAnchor? {
        guard let last = verified.last else { return nil }
        let files: [String]
        switch anchors {
        case .system: files = []
        case .files(let paths), .systemAndFiles(let paths): files = paths
        case .certificates(let certificates):
            return VerifiedAnchor(subject: last.subject, sha256: last.sha256,
                                  file: certificates.contains(where: { $0.der == last.der }) ? "(given certificates)" : nil)
        }
        for file in files {
            if let certificates = try? CertificateInfo.loadPEMFile(file), certificates.contains(where: { $0.der == last.der }) {
                return VerifiedAnchor(subject: last.subject, sha256: last.sha256, file: file)
            }
        }
        return VerifiedAnchor(subject: last.subject, sha256: last.sha256, file: nil)
    }
}

extension DefaultTrustEvaluator {
    /// The anchor the server's chain verifies to under this policy, or nil when it does not verify.
    ///
    /// - Parameter trust: what the server presented.
    /// - Throws: ``TrustError`` when the anchors cannot be loaded.
    public func verifiedAnchor(_ trust: ServerTrust) throws(TrustError) -> VerifiedAnchor? {
        guard let chain = try TrustChecks.verifiedChainIfAny(of: trust, verifier: verifier) else { return nil }
        return verifier.anchor(of: chain)
    }
}
