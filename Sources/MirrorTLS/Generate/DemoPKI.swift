import Foundation
import MirrorCore

/// A throwaway public-key infrastructure for `mtls-mirror demo` and tests, generated in
/// process with OpenSSL 3 (no `openssl` command needed).
///
/// Two independent CAs, as a real deployment has: a server CA that issues the origin's TLS
/// certificate (for `localhost`, `127.0.0.1` and `::1`), and a client CA that issues the
/// client certificate the origin demands. Every key is EC P-256 and every signature
/// ECDSA-SHA-256. The CA keys are never written: nothing more can be issued once this returns.
///
/// Files, all mode 0600 in a 0700 folder:
///
/// | File | What |
/// |---|---|
/// | `server-ca.pem` | the server CA certificate: the client's trust anchor (`--cacert`) |
/// | `server-chain.pem` | the server certificate (what the origin presents) |
/// | `server.key` | its private key, unencrypted PKCS#8 PEM |
/// | `client-ca.pem` | the client CA certificate: what the origin accepts clients from |
/// | `client.pem` | the client certificate alone (no key), for inspection |
/// | `client.p12` | the client certificate and key, PKCS#12 (AES-256/PBKDF2, SHA-256 MAC), protected by the password |
///
/// ```swift
/// let pki = try DemoPKI.generate(in: "output/demo/.pki", password: Secret("…"))
/// let identity = try ClientIdentity.load(certificate: pki.clientPKCS12, password: Secret("…"))
/// ```
public struct DemoPKI: Sendable {
    /// The names the server certificate is valid for.
    public static let serverNames = ["localhost", "127.0.0.1", "::1"]
    /// The client certificate's common name.
    public static let clientCommonName = "mtls-mirror demo client"

    /// The folder holding the files.
    public let directory: String
    /// The server certificate, parsed (for pins and display).
    public let serverCertificate: CertificateInfo
    /// The server CA certificate, parsed.
    public let serverCACertificate: CertificateInfo
    /// The client certificate, parsed.
    public let clientCertificate: CertificateInfo

    /// `server-ca.pem`: the trust anchor for the server.
    public var serverCAFile: String { directory + "/server-ca.pem" }
    /// `server-chain.pem`: the server's certificate chain (PEM).
    public var serverChainFile: String { directory + "/server-chain.pem" }
    /// `server.key`: the server's private key (PEM, unencrypted).
    public var serverKeyFile: String { directory + "/server.key" }
    /// `client-ca.pem`: the CA whose client certificates the server accepts.
    public var clientCAFile: String { directory + "/client-ca.pem" }
    /// `client.pem`: the client certificate without its key.
    public var clientCertificateFile: String { directory + "/client.pem" }
    /// `client.p12`: the client identity, password-protected.
    public var clientPKCS12File: String { directory + "/client.p12" }

    /// Generates a fresh PKI into `directory`, replacing files an earlier run left there.
    ///
    /// - Parameters:
    ///   - directory: the folder; created (with parents) if missing and made 0700.
    ///   - password: protects `client.p12`. It is handed to OpenSSL only, never logged.
    ///   - now: the start of validity (backdated one hour for clock skew).
    ///   - validityDays: how long the certificates stay valid.
    /// - Returns: the paths of the files and the parsed certificates.
    /// - Throws: ``CertificateGenerationError/keyGenerationFailed(curve:detail:)`` and
    ///   ``CertificateGenerationError/openSSL(operation:detail:)`` when OpenSSL fails,
    ///   ``CertificateGenerationError/directoryUnusable(path:reason:)`` and
    ///   ``CertificateGenerationError/writeFailed(path:reason:)`` when the files cannot be written.
    public static func generate(in directory: String, password: Secret, now: Date = Date(),
                                validityDays: Int = 90) throws(CertificateGenerationError) -> DemoPKI {
        let folder = try PrivateFolder(directory)
        let notBefore = now.addingTimeInterval(-3600)
        let notAfter = now.addingTimeInterval(TimeInterval(validityDays) * 86_400)
        func template(_ name: String, _ role: CertificateTemplate.Role) -> CertificateTemplate {
            CertificateTemplate(commonName: name, organization: "mtls-mirror demo", role: role, notBefore: notBefore, notAfter: notAfter)
        }

        let serverCAKey = try PrivateKey.generateEC()
        let serverCA = try CertificateIssuer.issue(template("mtls-mirror demo server CA", .certificateAuthority), key: serverCAKey, issuer: nil)
        let serverKey = try PrivateKey.generateEC()
        let server = try CertificateIssuer.issue(template("localhost", .server(names: serverNames)), key: serverKey,
                                                 issuer: (serverCA, serverCAKey))
        let clientCAKey = try PrivateKey.generateEC()
        let clientCA = try CertificateIssuer.issue(template("mtls-mirror demo client CA", .certificateAuthority), key: clientCAKey, issuer: nil)
        let clientKey = try PrivateKey.generateEC()
        let client = try CertificateIssuer.issue(template(clientCommonName, .client), key: clientKey, issuer: (clientCA, clientCAKey))

        try folder.write(try PEMWriter.certificate(serverCA), to: "server-ca.pem")
        try folder.write(try PEMWriter.certificate(server), to: "server-chain.pem")
        try folder.write(try serverKey.pemPKCS8(), to: "server.key")
        try folder.write(try PEMWriter.certificate(clientCA), to: "client-ca.pem")
        try folder.write(try PEMWriter.certificate(client), to: "client.pem")
        let p12 = try PKCS12Writer.export(key: clientKey, certificate: client, chain: [], friendlyName: clientCommonName, password: password)
        try folder.write(p12, to: "client.p12")

        do {
            return DemoPKI(directory: directory, serverCertificate: try CertificateInfo(server),
                           serverCACertificate: try CertificateInfo(serverCA), clientCertificate: try CertificateInfo(client))
        } catch {
            throw .openSSL(operation: "reading the generated certificates", detail: error.summary)
        }
    }
}
