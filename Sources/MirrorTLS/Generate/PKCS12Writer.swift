import CMirrorShims
import COpenSSL
import MirrorCore

/// Exports a key and certificate as a password-protected PKCS#12 file with modern algorithms:
/// AES-256-CBC under PBES2/PBKDF2 (HMAC-SHA-256) for both the key and the certificate bags,
/// and an HMAC-SHA-256 MAC — what `openssl pkcs12 -export` writes on OpenSSL 3.
///
/// `PKCS12_create` is asked for no MAC (`mac_iter` -1) because its own MAC would use its
/// default digest; `PKCS12_set_mac` then adds the SHA-256 one.
enum PKCS12Writer {
    /// PBKDF2 and MAC iterations. Enough to make guessing costly for a throwaway demo identity
    /// while keeping each load (three derivations) in the low milliseconds.
    static let iterations: Int32 = 10_000

    /// The DER bytes of a PKCS#12 file holding `key`, `certificate` and `chain`.
    ///
    /// - Parameters:
    ///   - key: the private key.
    ///   - certificate: the certificate for `key`.
    ///   - chain: extra certificates to include (intermediates), possibly none.
    ///   - friendlyName: the bag's friendly name (shown by key stores).
    ///   - password: protects the file; never logged.
    /// - Throws: ``CertificateGenerationError/openSSL(operation:detail:)`` naming
    ///   `PKCS12_create`, `PKCS12_set_mac` or `i2d_PKCS12`.
    static func export(key: PrivateKey, certificate: X509Certificate, chain: [X509Certificate],
                       friendlyName: String, password: Secret) throws(CertificateGenerationError) -> [UInt8] {
        // Installed before OpenSSL's table of password-based algorithms is first searched, as
        // ClientIdentity.load does: it is added to once, never while another thread reads it.
        PBES2KeyGenerator.install()
        let stack = X509Stack(chain)
        let created: OpaquePointer? = password.withCString { pass in
            PKCS12_create(pass, friendlyName, key.pointer, certificate.pointer, chain.isEmpty ? nil : stack.pointer,
                          NID_aes_256_cbc, NID_aes_256_cbc, iterations, -1, 0)
        }
        guard let p12 = created else {
            throw .openSSL(operation: "PKCS12_create", detail: OpenSSLErrorQueue.drainedText())
        }
        defer { PKCS12_free(p12) }
        let macSet = password.withCString { pass in PKCS12_set_mac(p12, pass, -1, nil, 0, iterations, EVP_sha256()) }
        guard macSet == 1 else {
            throw .openSSL(operation: "PKCS12_set_mac", detail: OpenSSLErrorQueue.drainedText())
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_PKCS12(p12, &output)
        guard length > 0, let output else {
            throw .openSSL(operation: "i2d_PKCS12", detail: OpenSSLErrorQueue.drainedText())
        }
        defer { CMirrorShims_OPENSSL_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
