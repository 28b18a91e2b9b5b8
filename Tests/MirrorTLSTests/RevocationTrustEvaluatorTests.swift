import COpenSSL
import Foundation
import Testing
@testable import MirrorTLS

@Suite struct RevocationTrustEvaluatorTests {
    func evaluator(crls: [String]) throws -> RevocationTrustEvaluator {
        RevocationTrustEvaluator(crlFiles: try crls.map { try TestPKI.path($0) }, anchors: try TrustFixtures.serverRoot())
    }

    @Test func revokedServerFails() throws {
        // Given the CRLs that list server-revoked
        let policy = try evaluator(crls: ["server-crl.pem"])
        // When that server presents its chain
        let refusal = TrustFixtures.refusal(policy, try TrustFixtures.trust("server-revoked-chain.pem"))
        // Then it is refused as revoked, by CRL
        #expect(refusal == .revoked(policy: "revocation", host: "localhost", subject: "CN=localhost", source: "CRL"))
    }

    @Test func revokedServerPassedBeforeTheRevocation() throws {
        let policy = try evaluator(crls: ["server-crl-empty.pem"])
        #expect(TrustFixtures.refusal(policy, try TrustFixtures.trust("server-revoked-chain.pem")) == nil)
    }

    @Test func goodServerPasses() throws {
        let policy = try evaluator(crls: ["server-crl.pem"])
        #expect(TrustFixtures.refusal(policy, try TrustFixtures.trust("server-chain.pem")) == nil)
    }

    @Test func missingCRLForTheIntermediateFailsClosed() throws {
        // Given only the root's CRL, nothing covering the intermediate that issued the leaf
        let policy = try evaluator(crls: ["server-root.crl.pem"])
        let refusal = TrustFixtures.refusal(policy, try TrustFixtures.trust("server-chain.pem"))
        guard case let .chainInvalid(_, _, code, _, _) = refusal else {
            Issue.record("expected chainInvalid, got \(String(describing: refusal))")
            return
        }
        #expect(code == X509_V_ERR_UNABLE_TO_GET_CRL)
    }

    @Test func noCRLFilesAtAllFailsClosed() throws {
        let policy = try evaluator(crls: [])
        guard case .chainInvalid = TrustFixtures.refusal(policy, try TrustFixtures.trust("server-chain.pem")) else {
            Issue.record("a chain without CRLs passed the revocation policy")
            return
        }
    }

    @Test func unreadableCRLFileFailsClosed() throws {
        let policy = try evaluator(crls: ["missing-crl.pem"])
        let refusal = TrustFixtures.refusal(policy, try TrustFixtures.trust("server-chain.pem"))
        #expect(refusal == .unreadableFile(path: try TestPKI.path("missing-crl.pem"), reason: "no such file"))
    }

    @Test func garbageStapledOCSPResponseFails() throws {
        let policy = try evaluator(crls: ["server-crl.pem"])
        var trust = try TrustFixtures.trust("server-chain.pem")
        trust.stapledOCSPResponse = [0x30, 0x03, 0x0a, 0x01, 0x07]
        guard case let .ocspInvalid(name, host, _) = TrustFixtures.refusal(policy, trust) else {
            Issue.record("a bad stapled OCSP response was accepted")
            return
        }
        #expect(name == "revocation" && host == "localhost")
    }

    /// A DER OCSP response for `certificate`, signed by the server intermediate CA with
    /// `openssl ocsp` from the CA's own database (where server-revoked is marked revoked).
    func ocspResponse(for certificate: String) throws -> [UInt8] {
        let folder = try TestPKI.directory.get()
        let unique = UUID().uuidString
        let request = folder + "/ocsp-\(unique).req"
        let response = folder + "/ocsp-\(unique).resp"
        let command = "cd '\(folder)' && openssl ocsp -issuer server-int.pem -cert \(certificate) -no_nonce -reqout '\(request)'"
            + " && openssl ocsp -index ca-server-int/index.txt -rsigner server-int.pem -rkey server-int.key"
            + " -CA server-int.pem -reqin '\(request)' -respout '\(response)' -ndays 1"
        let result = try TestPKI.runProcess("/bin/sh", ["-c", command])
        #expect(result.status == 0)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: response)))
    }

    @Test func stapledOCSPRevocationFailsEvenWhenTheCRLIsOld() throws {
        // Given CRLs from before the revocation, and an OCSP response saying "revoked" stapled
        let policy = try evaluator(crls: ["server-crl-empty.pem"])
        var trust = try TrustFixtures.trust("server-revoked-chain.pem")
        trust.stapledOCSPResponse = try ocspResponse(for: "server-revoked.pem")
        // Then the OCSP response decides
        #expect(TrustFixtures.refusal(policy, trust)
            == .revoked(policy: "revocation", host: "localhost", subject: "CN=localhost", source: "OCSP"))
    }

    @Test func stapledOCSPGoodPasses() throws {
        let policy = try evaluator(crls: ["server-crl.pem"])
        var trust = try TrustFixtures.trust("server-chain.pem")
        trust.stapledOCSPResponse = try ocspResponse(for: "server.pem")
        #expect(TrustFixtures.refusal(policy, trust) == nil)
    }

    @Test func stapledOCSPForAnotherCertificateFails() throws {
        let policy = try evaluator(crls: ["server-crl.pem"])
        var trust = try TrustFixtures.trust("server-chain.pem")
        trust.stapledOCSPResponse = try ocspResponse(for: "server-wronghost.pem")
        guard case let .ocspInvalid(_, _, reason) = TrustFixtures.refusal(policy, trust) else {
            Issue.record("an OCSP response for another certificate was accepted")
            return
        }
        #expect(reason.contains("does not cover"))
    }

    @Test func staleStapledOCSPFails() throws {
        let policy = try evaluator(crls: ["server-crl.pem"])
        var trust = try TrustFixtures.trust("server-chain.pem", at: Date().addingTimeInterval(3 * 86_400))
        trust.stapledOCSPResponse = try ocspResponse(for: "server.pem")
        guard case let .ocspInvalid(_, _, reason) = TrustFixtures.refusal(policy, trust) else {
            Issue.record("a stale OCSP response was accepted")
            return
        }
        #expect(reason.contains("stale"))
    }
}
