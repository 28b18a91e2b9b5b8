import CMirrorShims
import COpenSSL
import Foundation
import MirrorCore

/// A client certificate with its private key and the chain to send along, parsed once.
///
/// Load it with ``load(certificate:key:type:password:now:)`` from a PKCS#12 file or PEM files,
/// then hand it to ``TLSProfile`` which installs it into each connection's `SSL_CTX`. Parsing once
/// saves the per-connection key derivation curl would repeat for a P12 given by path.
///
/// The OpenSSL handles are owned here, never mutated after loading and freed in `deinit`;
/// `SSL_CTX_use_*` takes its own references, so the identity may be shared across threads.
public final class ClientIdentity: @unchecked Sendable {
    /// The client certificate.
    public let leaf: CertificateInfo
    /// The intermediate certificates sent along with the leaf (not including the leaf).
    public let chain: [CertificateInfo]
    /// The token, key and certificate source, when the key is on a PKCS#11 token.
    public let token: TokenKeyInfo?

    let key: PrivateKey
    let certificate: X509Certificate
    let chainCertificates: [X509Certificate]

    init(key: PrivateKey, certificate: X509Certificate, chain: [X509Certificate], file: String,
         token: TokenKeyInfo? = nil) throws(IdentityError) {
        do {
            self.leaf = try CertificateInfo(certificate)
            var infos: [CertificateInfo] = []
            for member in chain { infos.append(try CertificateInfo(member)) }
            self.chain = infos
        } catch {
            throw .openSSL(operation: "reading the certificates of \(file)", detail: error.summary)
        }
        self.token = token
        self.key = key
        self.certificate = certificate
        self.chainCertificates = chain
    }

    /// Loads a client identity from a PKCS#12 file, or from PEM certificate and key files.
    ///
    /// The format is detected from the content unless `type` is given: a PEM file has a
    /// `-----BEGIN` line; a DER PKCS#12 file starts with 0x30. PKCS#12 files may use modern
    /// (AES/PBKDF2) or legacy (RC2/3DES) encryption; for the latter OpenSSL's `legacy` provider
    /// is loaded on first need. For PEM, extra certificates in the certificate file form the chain
    /// and the key comes from `key`, or from the certificate file itself when `key` is nil.
    ///
    /// - Parameters:
    ///   - certificate: path of the `.p12` file or the PEM certificate (or combined) file.
    ///   - key: path of the PEM private key, when it is a separate file.
    ///   - type: the format, when detection should be skipped.
    ///   - password: the password of the PKCS#12 file or of an encrypted PEM key.
    ///   - now: the time against which the certificate's validity is checked.
    /// - Throws: ``IdentityError/unreadable(file:reason:)``, ``IdentityError/unrecognizedFormat(file:)``,
    ///   ``IdentityError/wrongPassword(file:)``, ``IdentityError/passwordRequired(file:)``,
    ///   ``IdentityError/legacyAlgorithmUnavailable(file:)``, ``IdentityError/noPrivateKey(file:)``,
    ///   ``IdentityError/keyMismatch(certificate:key:)``, ``IdentityError/expired(file:subject:notAfter:)``,
    ///   ``IdentityError/notYetValid(file:subject:notBefore:)`` or ``IdentityError/openSSL(operation:detail:)``.
    public static func load(
        certificate: String, key: String? = nil, type: CertificateType? = nil,
        password: Secret? = nil, now: Date = Date()
    ) throws(IdentityError) -> ClientIdentity {
        let bytes = try IdentityFile.read(certificate)
        guard let format = type ?? CertificateType.detect(bytes) else { throw .unrecognizedFormat(file: certificate) }
        // PBES2 with PBKDF2-HMAC-SHA-256, the bags' and encrypted keys' usual cipher, derived
        // without OpenSSL's per-round allocations (issue #27).
        PBES2KeyGenerator.install()
        let identity: ClientIdentity
        switch format {
        case .p12:
            identity = try PKCS12Reader.read(bytes, file: certificate, password: password)
        case .pem:
            identity = try PEMIdentityReader.read(
                certificateBytes: bytes, certificateFile: certificate, keyFile: key, password: password)
        }
        try identity.checkValidity(now: now, file: certificate)
        return identity
    }

    /// A warning when the certificate expires within `withinDays` days of `now` (or has expired).
    ///
    /// - Parameters:
    ///   - now: the current time.
    ///   - withinDays: how far ahead to look.
    /// - Returns: one line to show the user, or nil when the certificate stays valid long enough.
    public func expiryWarning(now: Date = Date(), withinDays: Int = 30) -> String? {
        let remaining = leaf.notAfter.timeIntervalSince(now)
        guard remaining < TimeInterval(withinDays) * 86_400 else { return nil }
        let date = UTCTime.iso8601(leaf.notAfter)
        if remaining <= 0 { return "client certificate '\(leaf.subject)' expired on \(date)" }
        let days = Int(remaining / 86_400)
        return "client certificate '\(leaf.subject)' expires on \(date) (in \(days) day\(days == 1 ? "" : "s")); renew it soon"
    }

    /// Installs the certificate, private key and chain into an OpenSSL `SSL_CTX`.
    ///
    /// Calls `SSL_CTX_use_certificate`, `SSL_CTX_use_PrivateKey`, `SSL_CTX_add1_chain_cert` for
    /// each chain certificate and `SSL_CTX_check_private_key`. The context takes its own references.
    ///
    /// - Parameter sslContext: the `SSL_CTX *`.
    /// - Throws: ``IdentityError/openSSL(operation:detail:)`` naming the call that failed.
    public func install(into sslContext: OpaquePointer) throws(IdentityError) {
        guard SSL_CTX_use_certificate(sslContext, certificate.pointer) == 1 else {
            throw .openSSL(operation: "SSL_CTX_use_certificate", detail: OpenSSLErrorQueue.drainedText())
        }
        guard SSL_CTX_use_PrivateKey(sslContext, key.pointer) == 1 else {
            throw .openSSL(operation: "SSL_CTX_use_PrivateKey", detail: OpenSSLErrorQueue.drainedText())
        }
        for member in chainCertificates where CMirrorShims_SSL_CTX_add1_chain_cert(sslContext, member.pointer) != 1 {
            throw .openSSL(operation: "SSL_CTX_add1_chain_cert", detail: OpenSSLErrorQueue.drainedText())
        }
        guard SSL_CTX_check_private_key(sslContext) == 1 else {
            throw .openSSL(operation: "SSL_CTX_check_private_key", detail: OpenSSLErrorQueue.drainedText())
        }
    }

    /// Throws when `now` lies outside the leaf's validity period.
    func checkValidity(now: Date, file: String) throws(IdentityError) {
        if now < leaf.notBefore { throw .notYetValid(file: file, subject: leaf.subject, notBefore: leaf.notBefore) }
        if now > leaf.notAfter { throw .expired(file: file, subject: leaf.subject, notAfter: leaf.notAfter) }
    }

    /// Throws ``IdentityError/keyMismatch(certificate:key:)`` unless `key` belongs to `certificate`.
    static func checkKey(_ key: PrivateKey, matches certificate: X509Certificate,
                         certificateFile: String, keyFile: String) throws(IdentityError) {
        guard X509_check_private_key(certificate.pointer, key.pointer) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            throw .keyMismatch(certificate: certificateFile, key: keyFile)
        }
    }
}

/// Reading identity files.
enum IdentityFile {
    /// The bytes of `path`.
    static func read(_ path: String) throws(IdentityError) -> [UInt8] {
        switch SmallFile.read(path) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw .unreadable(file: path, reason: failure.reason)
        }
    }
}
