import CMirrorShims
import COpenSSL

extension PrivateKey {
    /// The curve every generated key uses: NIST P-256 (prime256v1), accepted everywhere TLS is.
    static let generatedCurve = "P-256"

    /// Generates a fresh EC P-256 key (`EVP_EC_gen`, OpenSSL's default random source).
    ///
    /// - Throws: ``CertificateGenerationError/keyGenerationFailed(curve:detail:)`` with
    ///   OpenSSL's error text.
    static func generateEC() throws(CertificateGenerationError) -> PrivateKey {
        guard let key = CMirrorShims_EVP_EC_gen(generatedCurve) else {
            throw .keyGenerationFailed(curve: generatedCurve, detail: OpenSSLErrorQueue.drainedText())
        }
        return PrivateKey(taking: key)
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), for servers such as
    /// nginx or ``ServerTLSConfiguration``-style loaders that read a plain key file.
    ///
    /// - Throws: ``CertificateGenerationError/openSSL(operation:detail:)`` naming
    ///   `PEM_write_bio_PrivateKey`.
    func pemPKCS8() throws(CertificateGenerationError) -> [UInt8] {
        try PEMWriter.capture(operation: "PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        }
    }
}

/// Encodes OpenSSL objects as PEM through a memory BIO, so that the caller decides how the
/// bytes reach the disk (private permissions, atomic rename).
enum PEMWriter {
    /// Runs `write` against a fresh memory BIO and returns what it wrote.
    ///
    /// - Parameters:
    ///   - operation: the OpenSSL call's name, for the error.
    ///   - write: the `PEM_write_bio_*` call; returns 1 on success.
    /// - Throws: ``CertificateGenerationError/openSSL(operation:detail:)`` when the BIO cannot be
    ///   made or the call does not return 1.
    static func capture(operation: String, _ write: (OpaquePointer) -> Int32) throws(CertificateGenerationError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw .openSSL(operation: "BIO_new", detail: OpenSSLErrorQueue.drainedText())
        }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else {
            throw .openSSL(operation: operation, detail: OpenSSLErrorQueue.drainedText())
        }
        var data: UnsafeMutablePointer<CChar>?
        let length = CMirrorShims_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else {
            throw .openSSL(operation: operation, detail: "nothing was written")
        }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
    }

    /// A certificate as PEM (`PEM_write_bio_X509`).
    ///
    /// - Throws: ``CertificateGenerationError/openSSL(operation:detail:)``.
    static func certificate(_ certificate: X509Certificate) throws(CertificateGenerationError) -> [UInt8] {
        try capture(operation: "PEM_write_bio_X509") { bio in PEM_write_bio_X509(bio, certificate.pointer) }
    }
}
