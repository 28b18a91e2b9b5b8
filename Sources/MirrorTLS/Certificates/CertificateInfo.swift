import COpenSSL
import Foundation
import MirrorCore

/// What a certificate says, parsed once from its DER encoding.
///
/// A plain value: it can be logged, compared, stored in a ``ServerTrust`` and hashed for pins
/// without touching OpenSSL again.
public struct CertificateInfo: Sendable, Equatable {
    /// The DER encoding.
    public let der: [UInt8]
    /// The subject, one line in RFC 2253 style (`CN=localhost,O=Example`).
    public let subject: String
    /// The issuer, one line in RFC 2253 style.
    public let issuer: String
    /// The serial number, upper-case hexadecimal.
    public let serialNumber: String
    /// Start of the validity period.
    public let notBefore: Date
    /// End of the validity period.
    public let notAfter: Date
    /// Subject alternative names such as `DNS:localhost`, `IP:127.0.0.1`, `email:…`, `URI:…`.
    public let subjectAlternativeNames: [String]
    /// Whether basic constraints mark this certificate as a CA.
    public let isCA: Bool
    /// Lower-case hexadecimal SHA-256 of ``der`` (the certificate fingerprint).
    public let sha256: String
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo (`i2d_X509_PUBKEY`), as curl and HPKP use it.
    public let spkiSHA256: String

    /// The public-key pin in curl's `CURLOPT_PINNEDPUBLICKEY` form: `sha256//` + ``spkiSHA256``.
    public var pin: String { "sha256//" + spkiSHA256 }

    /// Parses one DER certificate.
    ///
    /// - Parameter der: the DER bytes of exactly one X.509 certificate.
    /// - Throws: ``TrustError/invalidCertificate(reason:)`` when the bytes are not a certificate
    ///   or a field cannot be read.
    public init(der: [UInt8]) throws(TrustError) {
        guard let certificate = X509Certificate(der: der) else {
            throw .invalidCertificate(reason: OpenSSLErrorQueue.drainedText(fallback: "not DER X.509"))
        }
        try self.init(certificate)
    }

    /// Reads a borrowed OpenSSL certificate.
    init(_ certificate: X509Certificate) throws(TrustError) {
        let x509 = certificate.pointer
        guard let der = certificate.der else {
            throw .invalidCertificate(reason: OpenSSLErrorQueue.drainedText(fallback: "cannot encode"))
        }
        guard let notBefore = X509Fields.date(X509_get0_notBefore(x509)),
              let notAfter = X509Fields.date(X509_get0_notAfter(x509))
        else { throw .invalidCertificate(reason: "unreadable validity dates") }
        guard let spki = X509Fields.spkiDER(x509) else {
            throw .invalidCertificate(reason: OpenSSLErrorQueue.drainedText(fallback: "unreadable public key"))
        }
        self.der = der
        self.subject = X509Fields.name(X509_get_subject_name(x509))
        self.issuer = X509Fields.name(X509_get_issuer_name(x509))
        self.serialNumber = X509Fields.serial(x509)
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectAlternativeNames = X509Fields.subjectAlternativeNames(x509)
        self.isCA = (X509_get_extension_flags(x509) & UInt32(EXFLAG_CA)) != 0
        self.sha256 = SHA256Digest.hex(der)
        self.spkiSHA256 = Data(SHA256Digest.hash(spki)).base64EncodedString()
        DecodedCertificates.shared.remember(certificate, sha256: sha256)
    }

    /// Reads every certificate of a file: all PEM `CERTIFICATE` blocks in order, or one DER certificate.
    ///
    /// - Parameter path: the file to read.
    /// - Throws: ``TrustError/unreadableFile(path:reason:)`` when the file cannot be read or holds
    ///   no certificate; ``TrustError/invalidCertificate(reason:)`` when one cannot be parsed.
    public static func loadPEMFile(_ path: String) throws(TrustError) -> [CertificateInfo] {
        let bytes = try TrustFile.read(path)
        let certificates: [X509Certificate]
        if TrustFile.isPEM(bytes) {
            certificates = X509Certificate.readAllPEM(bytes)
        } else if let single = X509Certificate(der: bytes) {
            certificates = [single]
        } else {
            _ = OpenSSLErrorQueue.drain()
            certificates = []
        }
        guard !certificates.isEmpty else { throw .unreadableFile(path: path, reason: "no PEM or DER certificate found") }
        var infos: [CertificateInfo] = []
        for certificate in certificates { infos.append(try CertificateInfo(certificate)) }
        return infos
    }

    /// An OpenSSL handle for this certificate: the one it was read from while it is remembered
    /// (``DecodedCertificates``), else a new one decoded from ``der``. OpenSSL only reads it.
    func makeX509() throws(TrustError) -> X509Certificate {
        if let known = DecodedCertificates.shared.certificate(sha256: sha256) { return known }
        guard let certificate = X509Certificate(der: der) else {
            throw .invalidCertificate(reason: OpenSSLErrorQueue.drainedText(fallback: "not DER X.509"))
        }
        return certificate
    }
}

/// Reading trust files (anchors, CRLs, pinned certificates).
enum TrustFile {
    /// The bytes of `path`.
    static func read(_ path: String) throws(TrustError) -> [UInt8] {
        switch SmallFile.read(path) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw .unreadableFile(path: path, reason: failure.reason)
        }
    }

    /// Whether `bytes` contain a PEM header.
    static func isPEM(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN".utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if Array(bytes[start..<start + marker.count]) == marker { return true }
        }
        return false
    }
}
