import Foundation
import MirrorCore
import MirrorTestSupport
import Testing
@testable import MirrorTLS

/// The in-process PKI generator, checked by the `openssl` command (an independent verifier),
/// by our own identity loader, and by its file permissions.
@Suite(.serialized) struct GenerateDemoPKITests {
    static let password = Secret("demo-Pa55-\(UInt32.random(in: 0...UInt32.max))")

    /// One generated PKI for the suite (generation is cheap, but openssl runs are not free).
    static let shared = Result { () throws -> (TemporaryDirectory, DemoPKI) in
        let temporary = try TemporaryDirectory(prefix: "demo-pki-test")
        return (temporary, try DemoPKI.generate(in: temporary.path + "/nested/.pki", password: password))
    }

    func openssl(_ arguments: [String]) throws -> CommandRunner.Result {
        let runner = try #require(CommandRunner.forTool(named: "openssl"))
        return runner.run(arguments, timeout: 30)
    }

    @Test("openssl verify accepts each certificate for its purpose and rejects the other CA")
    func opensslVerifies() throws {
        let (_, pki) = try Self.shared.get()
        let server = try openssl(["verify", "-purpose", "sslserver", "-verify_hostname", "localhost",
                                  "-CAfile", pki.serverCAFile, pki.serverChainFile])
        #expect(server.exitCode == 0, "\(server)")
        #expect(server.stdout.contains(": OK"))
        let ip = try openssl(["verify", "-purpose", "sslserver", "-verify_ip", "::1", "-CAfile", pki.serverCAFile, pki.serverChainFile])
        #expect(ip.exitCode == 0, "\(ip)")
        let client = try openssl(["verify", "-purpose", "sslclient", "-CAfile", pki.clientCAFile, pki.clientCertificateFile])
        #expect(client.exitCode == 0, "\(client)")
        // Negative: the wrong CA, the wrong purpose, the wrong host.
        let crossed = try openssl(["verify", "-CAfile", pki.clientCAFile, pki.serverChainFile])
        #expect(crossed.exitCode != 0, "\(crossed)")
        let wrongPurpose = try openssl(["verify", "-purpose", "sslserver", "-CAfile", pki.clientCAFile, pki.clientCertificateFile])
        #expect(wrongPurpose.exitCode != 0, "\(wrongPurpose)")
        let wrongHost = try openssl(["verify", "-verify_hostname", "example.com", "-CAfile", pki.serverCAFile, pki.serverChainFile])
        #expect(wrongHost.exitCode != 0, "\(wrongHost)")
    }

    @Test("the server key matches the server certificate, and is EC P-256")
    func serverKeyMatches() throws {
        let (_, pki) = try Self.shared.get()
        let fromCert = try openssl(["x509", "-in", pki.serverChainFile, "-noout", "-pubkey"])
        let fromKey = try openssl(["pkey", "-in", pki.serverKeyFile, "-pubout"])
        #expect(fromCert.exitCode == 0 && fromKey.exitCode == 0)
        #expect(!fromCert.stdout.isEmpty && fromCert.stdout == fromKey.stdout)
        let text = try openssl(["x509", "-in", pki.serverChainFile, "-noout", "-text"])
        #expect(text.stdout.contains("prime256v1") || text.stdout.contains("P-256"), "\(text.stdout)")
        #expect(text.stdout.contains("ecdsa-with-SHA256"))
        #expect(text.stdout.contains("TLS Web Server Authentication"))
        #expect(text.stdout.contains("Version: 3"))
    }

    @Test("the P12 loads with the password, uses AES-256/PBKDF2 and a SHA-256 MAC, and refuses a wrong password")
    func pkcs12() throws {
        let (_, pki) = try Self.shared.get()
        let identity = try ClientIdentity.load(certificate: pki.clientPKCS12File, password: Self.password)
        #expect(identity.leaf.subject.contains("CN=\(DemoPKI.clientCommonName)"))
        #expect(identity.leaf == pki.clientCertificate)
        #expect(identity.expiryWarning() == nil)
        #expect(throws: IdentityError.wrongPassword(file: pki.clientPKCS12File)) {
            try ClientIdentity.load(certificate: pki.clientPKCS12File, password: Secret("not-the-password"))
        }
        let info = try openssl(["pkcs12", "-info", "-noout", "-in", pki.clientPKCS12File, "-passin", "pass:" + Self.password.reveal()])
        #expect(info.exitCode == 0, "\(info)")
        let details = info.stdout + info.stderr
        #expect(details.contains("MAC: sha256"), "\(details)")
        #expect(details.contains("PBKDF2"), "\(details)")
        #expect(details.contains("AES-256-CBC"), "\(details)")
        #expect(!details.contains("RC2") && !details.contains("3DES"))
    }

    @Test("the server certificate names localhost, 127.0.0.1 and ::1; the CAs are CAs and the leaves are not")
    func namesAndRoles() throws {
        let (_, pki) = try Self.shared.get()
        let names = pki.serverCertificate.subjectAlternativeNames.joined(separator: " ")
        #expect(names.contains("localhost"))
        #expect(names.contains("127.0.0.1"))
        #expect(names.contains("IP:") && (names.contains("::1") || names.contains("0:0:0:0:0:0:0:1")), "\(names)")
        #expect(pki.serverCACertificate.isCA)
        #expect(!pki.serverCertificate.isCA)
        #expect(!pki.clientCertificate.isCA)
        #expect(pki.serverCertificate.issuer == pki.serverCACertificate.subject)
        #expect(pki.serverCertificate.serialNumber != pki.clientCertificate.serialNumber)
        #expect(pki.serverCertificate.serialNumber.count >= 30)
    }

    @Test("every file is 0600, the folder 0700; a second run replaces the files with new keys")
    func permissionsAndRegeneration() throws {
        let temporary = try TemporaryDirectory(prefix: "demo-pki-perm")
        let folder = temporary.path + "/pki"
        let first = try DemoPKI.generate(in: folder, password: Self.password)
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["client-ca.pem", "client.p12", "client.pem", "server-ca.pem", "server-chain.pem", "server.key"])
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
        let second = try DemoPKI.generate(in: folder, password: Self.password)
        #expect(first.serverCertificate.spkiSHA256 != second.serverCertificate.spkiSHA256)
        #expect(try CertificateInfo.loadPEMFile(second.serverChainFile).first == second.serverCertificate)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 6)
    }

    @Test("a file where the folder should be is refused with the path")
    func unusableFolder() throws {
        let temporary = try TemporaryDirectory(prefix: "demo-pki-bad")
        let path = temporary.path + "/not-a-folder"
        try "x".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try DemoPKI.generate(in: path, password: Self.password)
        } throws: { error in
            guard case .directoryUnusable(let reported, _)? = error as? CertificateGenerationError else { return false }
            return reported == path
        }
    }

    @Test(arguments: [
        (["localhost"], "DNS:localhost"),
        (["localhost", "127.0.0.1", "::1"], "DNS:localhost,IP:127.0.0.1,IP:::1"),
        (["a.example", "10.0.0.5", "fe80::1"], "DNS:a.example,IP:10.0.0.5,IP:fe80::1"),
        (["1.example"], "DNS:1.example"),
    ])
    func subjectAltNameSyntax(names: [String], expected: String) {
        #expect(CertificateTemplate.subjectAltName(names) == expected)
    }

    @Test("extensions by role: CA signs, server and client carry their EKU, key identifiers last")
    func extensionsByRole() {
        let now = Date()
        func names(_ role: CertificateTemplate.Role) -> [String: String] {
            let template = CertificateTemplate(commonName: "x", organization: "o", role: role, notBefore: now, notAfter: now)
            #expect(template.extensions.suffix(2).map(\.name) == ["subjectKeyIdentifier", "authorityKeyIdentifier"])
            return Dictionary(uniqueKeysWithValues: template.extensions.map { ($0.name, $0.value) })
        }
        let ca = names(.certificateAuthority)
        #expect(ca["basicConstraints"]?.contains("CA:TRUE") == true)
        #expect(ca["keyUsage"]?.contains("keyCertSign") == true)
        #expect(ca["extendedKeyUsage"] == nil)
        let server = names(.server(names: ["localhost"]))
        #expect(server["basicConstraints"]?.contains("CA:FALSE") == true)
        #expect(server["extendedKeyUsage"] == "serverAuth")
        #expect(server["subjectAltName"] == "DNS:localhost")
        let client = names(.client)
        #expect(client["extendedKeyUsage"] == "clientAuth")
        #expect(client["subjectAltName"] == nil)
    }
}
