import CMirrorShims
import COpenSSL
import Foundation

/// The argument of the certificate-verify callback: which profile, host and outcome a
/// connection belongs to. Retained by the `SSL_CTX`'s ex_data, released by its free function.
final class VerifyContext: @unchecked Sendable {
    let profile: TLSProfile
    let host: String
    let port: Int
    let outcome: HandshakeOutcome

    init(profile: TLSProfile, host: String, port: Int, outcome: HandshakeOutcome) {
        self.profile = profile
        self.host = host
        self.port = port
        self.outcome = outcome
    }

    /// The `SSL_CTX` ex_data index holding a retained `VerifyContext`; allocated once per process.
    static let exDataIndex: Int32 = CMirrorShims_SSL_CTX_get_ex_new_index(releaseExData)

    /// Releases the retained context when OpenSSL frees the `SSL_CTX` (`CRYPTO_EX_free`).
    static let releaseExData: @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<CRYPTO_EX_DATA>?, Int32, Int, UnsafeMutableRawPointer?
    ) -> Void = { _, pointer, _, _, _, _ in
        guard let pointer else { return }
        Unmanaged<VerifyContext>.fromOpaque(pointer).release()
    }

    /// The `SSL_CTX_set_cert_verify_callback` callback: builds a ``ServerTrust`` from the store
    /// context, runs the profile's evaluator, records the outcome, returns 1 to accept or 0 to abort.
    static let callback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { storeContext, argument in
        guard let storeContext, let argument else { return 0 }
        let context = Unmanaged<VerifyContext>.fromOpaque(argument).takeUnretainedValue()
        return context.verify(storeContext) ? 1 : 0
    }

    /// Evaluates the peer's chain held in `storeContext` (an `X509_STORE_CTX *`).
    func verify(_ storeContext: OpaquePointer) -> Bool {
        let ssl = X509_STORE_CTX_get_ex_data(storeContext, SSL_get_ex_data_X509_STORE_CTX_idx()).map { OpaquePointer($0) }
        let parameters = ssl.map(Self.negotiated) ?? (nil, nil, nil)
        let trust: ServerTrust
        do {
            trust = ServerTrust(
                host: host, port: port, chain: try Self.presentedChain(storeContext),
                stapledOCSPResponse: ssl.flatMap(Self.stapledResponse), verificationTime: Date())
        } catch {
            outcome.record(trust: nil, error: error, version: parameters.0, cipher: parameters.1, alpn: parameters.2)
            X509_STORE_CTX_set_error(storeContext, X509_V_ERR_APPLICATION_VERIFICATION)
            return false
        }
        do {
            try profile.evaluator.evaluate(trust)
        } catch {
            outcome.record(trust: trust, error: error, version: parameters.0, cipher: parameters.1, alpn: parameters.2)
            X509_STORE_CTX_set_error(storeContext, X509_V_ERR_APPLICATION_VERIFICATION)
            return false
        }
        outcome.record(trust: trust, error: nil, version: parameters.0, cipher: parameters.1, alpn: parameters.2)
        X509_STORE_CTX_set_error(storeContext, X509_V_OK)
        return true
    }

    /// The peer's leaf followed by the rest of what it sent (the untrusted stack, leaf removed).
    static func presentedChain(_ storeContext: OpaquePointer) throws(TrustError) -> [CertificateInfo] {
        guard let leafPointer = X509_STORE_CTX_get0_cert(storeContext) else { return [] }
        let leaf = try CertificateInfo(X509Certificate(retaining: leafPointer))
        var chain = [leaf]
        for certificate in X509Stack.certificates(in: X509_STORE_CTX_get0_untrusted(storeContext)) {
            let info = try CertificateInfo(certificate)
            if info.der != leaf.der { chain.append(info) }
        }
        return chain
    }

    /// The stapled OCSP response, if the server sent one.
    static func stapledResponse(_ ssl: OpaquePointer) -> [UInt8]? {
        var data: UnsafePointer<UInt8>?
        let length = CMirrorShims_SSL_get_tlsext_status_ocsp_resp(ssl, &data)
        guard let data, length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(length)))
    }

    /// Protocol version, cipher and ALPN negotiated so far.
    static func negotiated(_ ssl: OpaquePointer) -> (String?, String?, String?) {
        let version = SSL_get_version(ssl).map { String(cString: $0) }
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) }
        var alpnData: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpnData, &alpnLength)
        let alpn = alpnData.flatMap { alpnLength > 0 ? String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self) : nil }
        return (version, cipher, alpn)
    }
}
