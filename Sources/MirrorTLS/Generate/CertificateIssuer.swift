import COpenSSL
import Foundation

/// Builds and signs X.509 v3 certificates from ``CertificateTemplate`` values with OpenSSL:
/// `X509_new`, `X509_set_version`, a random serial (`RAND_bytes`), validity, subject and issuer
/// names, the template's extensions (`X509V3_set_ctx` + `X509V3_EXT_conf_nid`), and
/// `X509_sign` with SHA-256.
enum CertificateIssuer {
    /// `X509_set_version` takes the zero-based number: 2 means X.509 v3.
    static let version3: Int = 2
    /// Random serial length: 16 bytes (RFC 5280 allows up to 20; CA/B requires 64 random bits).
    static let serialBytes = 16

    /// Issues a certificate for `key`.
    ///
    /// - Parameters:
    ///   - template: what the certificate says.
    ///   - key: the subject's key; its public half goes into the certificate.
    ///   - issuer: the issuing CA's certificate and key; `nil` makes the certificate self-signed
    ///     (signed by `key`, issuer name = subject name).
    /// - Returns: the signed certificate.
    /// - Throws: ``CertificateGenerationError/openSSL(operation:detail:)`` naming the first call
    ///   that failed, with OpenSSL's error text.
    static func issue(_ template: CertificateTemplate, key: PrivateKey,
                      issuer: (certificate: X509Certificate, key: PrivateKey)?) throws(CertificateGenerationError) -> X509Certificate {
        guard let raw = X509_new() else { throw failure("X509_new") }
        let certificate = X509Certificate(taking: raw)
        let x509 = certificate.pointer
        guard X509_set_version(x509, version3) == 1 else { throw failure("X509_set_version") }
        try setRandomSerial(x509)
        guard ASN1_TIME_set(X509_getm_notBefore(x509), time_t(template.notBefore.timeIntervalSince1970)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(x509), time_t(template.notAfter.timeIntervalSince1970)) != nil
        else { throw failure("ASN1_TIME_set") }
        try setSubject(x509, commonName: template.commonName, organization: template.organization)
        let issuerName = issuer.map { X509_get_subject_name($0.certificate.pointer) } ?? X509_get_subject_name(x509)
        guard X509_set_issuer_name(x509, issuerName) == 1 else { throw failure("X509_set_issuer_name") }
        guard X509_set_pubkey(x509, key.pointer) == 1 else { throw failure("X509_set_pubkey") }
        try addExtensions(template.extensions, to: x509, issuer: issuer?.certificate.pointer ?? x509)
        let signer = issuer?.key ?? key
        guard X509_sign(x509, signer.pointer, EVP_sha256()) > 0 else { throw failure("X509_sign") }
        return certificate
    }

    private static func failure(_ operation: String) -> CertificateGenerationError {
        .openSSL(operation: operation, detail: OpenSSLErrorQueue.drainedText())
    }

    /// A positive random serial number.
    private static func setRandomSerial(_ x509: OpaquePointer) throws(CertificateGenerationError) {
        var bytes = [UInt8](repeating: 0, count: serialBytes)
        guard RAND_bytes(&bytes, Int32(serialBytes)) == 1 else { throw failure("RAND_bytes") }
        bytes[0] = (bytes[0] & 0x7F) | 0x40  // positive, and always the full length
        guard let number = BN_bin2bn(bytes, Int32(serialBytes), nil) else { throw failure("BN_bin2bn") }
        defer { BN_free(number) }
        guard let serial = BN_to_ASN1_INTEGER(number, nil) else { throw failure("BN_to_ASN1_INTEGER") }
        defer { ASN1_INTEGER_free(serial) }
        guard X509_set_serialNumber(x509, serial) == 1 else { throw failure("X509_set_serialNumber") }
    }

    private static func setSubject(_ x509: OpaquePointer, commonName: String, organization: String) throws(CertificateGenerationError) {
        guard let name = X509_NAME_new() else { throw failure("X509_NAME_new") }
        defer { X509_NAME_free(name) }
        for (field, value) in [("O", organization), ("CN", commonName)] where !value.isEmpty {
            let added = X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0)
            guard added == 1 else { throw failure("X509_NAME_add_entry_by_txt(\(field))") }
        }
        guard X509_set_subject_name(x509, name) == 1 else { throw failure("X509_set_subject_name") }
    }

    private static func addExtensions(_ extensions: [(name: String, value: String)], to x509: OpaquePointer,
                                      issuer: OpaquePointer) throws(CertificateGenerationError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, x509, nil, nil, 0)
        for (name, value) in extensions {
            let nid = OBJ_sn2nid(name)
            guard nid != NID_undef else { throw failure("OBJ_sn2nid(\(name))") }
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw failure("X509V3_EXT_conf_nid(\(name)=\(value))")
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(x509, ext, -1) == 1 else { throw failure("X509_add_ext(\(name))") }
        }
    }
}
