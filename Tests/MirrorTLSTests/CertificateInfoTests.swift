import Foundation
import Testing
@testable import MirrorTLS

@Suite struct CertificateInfoTests {
    @Test func serverLeafFieldsAreParsed() throws {
        let path = try TestPKI.path("server.pem")
        let info = try #require(try CertificateInfo.loadPEMFile(path).first)
        #expect(info.subject == "CN=localhost")
        #expect(info.issuer == "CN=mtls-mirror test server intermediate CA")
        #expect(info.subjectAlternativeNames == ["DNS:localhost", "IP:127.0.0.1", "IP:::1"])
        #expect(!info.isCA)
        #expect(info.notBefore < Date() && Date() < info.notAfter)
        let serial = try TestPKI.runProcess("/bin/sh", ["-c", "openssl x509 -in '\(path)' -noout -serial"])
        #expect(serial.output.trimmingCharacters(in: .whitespacesAndNewlines) == "serial=" + info.serialNumber)
        let fingerprint = try TestPKI.runProcess("/bin/sh", ["-c", "openssl x509 -in '\(path)' -outform der | openssl dgst -sha256 -r"])
        #expect(fingerprint.output.hasPrefix(info.sha256))
    }

    @Test func chainFileGivesEveryCertificateInOrder() throws {
        let chain = try CertificateInfo.loadPEMFile(TestPKI.path("server-chain.pem"))
        #expect(chain.map(\.isCA) == [false, true])
        #expect(chain[0].issuer == chain[1].subject)
    }

    @Test func derFileIsAccepted() throws {
        let pem = try TestPKI.path("server-int.pem")
        let der = try TestPKI.directory.get() + "/server-int-\(UUID().uuidString).der"
        #expect(try TestPKI.runProcess("/bin/sh", ["-c", "openssl x509 -in '\(pem)' -outform der -out '\(der)'"]).status == 0)
        #expect(try CertificateInfo.loadPEMFile(der) == CertificateInfo.loadPEMFile(pem))
    }

    @Test func nonCertificatesAreRejected() throws {
        let garbage = try TestPKI.path("garbage.p12")
        #expect(throws: TrustError.unreadableFile(path: garbage, reason: "no PEM or DER certificate found")) {
            try CertificateInfo.loadPEMFile(garbage)
        }
        #expect(throws: TrustError.self) { try CertificateInfo(der: [0x30, 0x00]) }
    }
}
