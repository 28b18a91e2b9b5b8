import CMirrorShims
import COpenSSL
import Foundation

/// Verifies presented chains against trust anchors (and optionally CRLs) with OpenSSL.
///
/// Uses `X509_STORE_CTX` + `X509_verify_cert` with the time injected through
/// `X509_VERIFY_PARAM_set_time` and the TLS-server purpose. The anchor store and CRLs are
/// parsed on first use and then kept, so a handshake costs one verification, not a file parse.
/// Thread-safe: the cache is lock-protected and the store is only read afterwards.
public final class ChainVerifier: @unchecked Sendable {
    /// The outcome of a verification.
    public enum Outcome: Sendable, Equatable {
        /// The chain verifies; the verified chain runs from the leaf to the anchor.
        case verified([CertificateInfo])
        /// It does not: OpenSSL's `X509_V_ERR_*` code, its text, and the failing depth (0 = leaf).
        case failed(code: Int32, reason: String, depth: Int32)
    }

    /// Where chains must lead.
    public let anchors: TrustAnchors
    /// CRL files loaded into the store (used when ``verify(_:at:checkCRLs:)`` asks for CRL checks).
    public let crlFiles: [String]

    private let lock = NSLock()
    private var cached: Result<TrustStore, TrustError>?

    /// Creates a verifier. Nothing is read until the first verification.
    ///
    /// - Parameters:
    ///   - anchors: the trust anchors.
    ///   - crlFiles: CRL files (PEM or DER) to load.
    public init(anchors: TrustAnchors, crlFiles: [String] = []) {
        self.anchors = anchors
        self.crlFiles = crlFiles
    }

    /// Verifies `chain` (leaf first, as presented) at `time`.
    ///
    /// - Parameters:
    ///   - chain: the presented certificates, leaf first; the rest are untrusted intermediates.
    ///   - time: the verification time.
    ///   - checkCRLs: also check revocation of every certificate (`X509_V_FLAG_CRL_CHECK |
    ///     X509_V_FLAG_CRL_CHECK_ALL`). A CA without a CRL then fails (`unable to get certificate CRL`).
    /// - Returns: ``Outcome/verified(_:)`` or ``Outcome/failed(code:reason:depth:)``.
    /// - Throws: ``TrustError/unreadableFile(path:reason:)`` when anchors or CRLs cannot be loaded,
    ///   ``TrustError/invalidCertificate(reason:)`` for undecodable DER, ``TrustError/openSSL(operation:detail:)``.
    public func verify(_ chain: [CertificateInfo], at time: Date, checkCRLs: Bool = false) throws(TrustError) -> Outcome {
        let store = try loadStore()
        guard let leafInfo = chain.first else {
            return .failed(code: X509_V_ERR_UNSPECIFIED, reason: "no certificate presented", depth: 0)
        }
        let leaf = try leafInfo.makeX509()
        var intermediates: [X509Certificate] = []
        for info in chain.dropFirst() { intermediates.append(try info.makeX509()) }
        let untrusted = X509Stack(intermediates)
        guard let context = X509_STORE_CTX_new() else {
            throw .openSSL(operation: "X509_STORE_CTX_new", detail: OpenSSLErrorQueue.drainedText())
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store.pointer, leaf.pointer, untrusted.pointer) == 1 else {
            throw .openSSL(operation: "X509_STORE_CTX_init", detail: OpenSSLErrorQueue.drainedText())
        }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(time.timeIntervalSince1970.rounded(.down)))
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER)
        if checkCRLs { X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL)) }
        let status = X509_verify_cert(context)
        _ = OpenSSLErrorQueue.drain()
        guard status == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "unknown error"
            return .failed(code: code, reason: reason, depth: X509_STORE_CTX_get_error_depth(context))
        }
        guard let verified = X509_STORE_CTX_get1_chain(context) else {
            throw .openSSL(operation: "X509_STORE_CTX_get1_chain", detail: OpenSSLErrorQueue.drainedText())
        }
        defer { CMirrorShims_sk_X509_pop_free(verified) }
        var infos: [CertificateInfo] = []
        for certificate in X509Stack.certificates(in: verified) { infos.append(try CertificateInfo(certificate)) }
        return .verified(infos)
    }

    /// Whether the store was loaded (or failed to load) already.
    var isLoaded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cached != nil
    }

    /// Loads the store now, so that the first ``verify(_:at:checkCRLs:)`` does not (a failure is
    /// kept and thrown there).
    func prepare() {
        _ = try? loadStore()
    }

    /// The loaded store, for OCSP response verification.
    func loadStore() throws(TrustError) -> TrustStore {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return try cached.get() }
        let result: Result<TrustStore, TrustError>
        do { result = .success(try TrustStore(anchors: anchors, crlFiles: crlFiles)) } catch { result = .failure(error) }
        cached = result
        return try result.get()
    }
}
