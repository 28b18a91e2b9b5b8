import COpenSSL
import Foundation
import Testing
@testable import MirrorTLS

@Suite struct DefaultTrustEvaluatorTests {
    @Test(arguments: ["localhost", "LOCALHOST", "localhost.", "127.0.0.1", "[::1]"])
    func validChainForTheHostPasses(host: String) throws {
        // Given a server chain issued under the server root, and that root as anchor
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        // When the client connects by a name or address in the certificate
        let trust = try TrustFixtures.trust("server-chain.pem", host: host)
        // Then the policy accepts
        #expect(TrustFixtures.refusal(evaluator, trust) == nil)
    }

    @Test func wrongHostFailsWithTheCertificateNames() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-wronghost-chain.pem"))
        #expect(refusal == .hostnameMismatch(policy: "default", host: "localhost", names: ["DNS:wrong.example"]))
        #expect(refusal?.summary.contains("wrong.example") == true)
        #expect(refusal?.category == .serverTrust)
    }

    @Test func otherHostOnAValidCertificateFails() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-chain.pem", host: "example.org"))
        #expect(refusal == .hostnameMismatch(
            policy: "default", host: "example.org", names: ["DNS:localhost", "IP:127.0.0.1", "IP:::1"]))
    }

    @Test func validateHostFalseLetsTheWrongHostPass() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot(), validateHost: false)
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-wronghost-chain.pem")) == nil)
    }

    @Test func expiredChainFails() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-expired-chain.pem"))
        guard case let .chainInvalid(policy, host, code, reason, depth) = refusal else {
            Issue.record("expected chainInvalid, got \(String(describing: refusal))")
            return
        }
        #expect(policy == "default" && host == "localhost")
        #expect(code == X509_V_ERR_CERT_HAS_EXPIRED)
        #expect(reason.contains("expired"))
        #expect(depth == 0)
        #expect(refusal?.hint.contains("clock") == true)
    }

    @Test func injectedTimeDecidesValidity() throws {
        // Given the expired certificate, judged at a time inside its validity (mid 2020)
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let past = Date(timeIntervalSince1970: 1_593_561_600)
        let trust = try TrustFixtures.trust("server-expired-chain.pem", at: past)
        // Then only the CA validity can object: the CAs were created today, after that time
        let refusal = TrustFixtures.refusal(evaluator, trust)
        guard case let .chainInvalid(_, _, code, _, depth) = refusal else {
            Issue.record("expected chainInvalid, got \(String(describing: refusal))")
            return
        }
        #expect(code == X509_V_ERR_CERT_NOT_YET_VALID)
        #expect(depth >= 1)
    }

    @Test func selfSignedFails() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-selfsigned.pem"))
        guard case let .chainInvalid(_, _, code, _, _) = refusal else {
            Issue.record("expected chainInvalid, got \(String(describing: refusal))")
            return
        }
        #expect(code == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT)
        #expect(refusal?.hint.contains("trust the CA that issued") == true)
        #expect(refusal?.isUnknownIssuer == true)
        #expect(refusal?.hint.contains("--") == false, "the library names no flag")
    }

    @Test func systemAnchorsDoNotTrustTheTestRoot() throws {
        let refusal = TrustFixtures.refusal(DefaultTrustEvaluator(), try TrustFixtures.trust("server-chain.pem"))
        guard case let .chainInvalid(policy, _, code, _, _) = refusal else {
            Issue.record("expected chainInvalid, got \(String(describing: refusal))")
            return
        }
        #expect(policy == "default")
        #expect(code == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY)
    }

    @Test func leafWithoutItsIntermediateFails() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server.pem"))
        guard case .chainInvalid = refusal else { Issue.record("got \(String(describing: refusal))"); return }
    }

    @Test func emptyChainFails() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let refusal = TrustFixtures.refusal(evaluator, ServerTrust(host: "localhost", chain: []))
        #expect(refusal == .noCertificates(policy: "default", host: "localhost"))
    }

    @Test func unreadableAnchorFileFailsClosed() throws {
        let path = try TestPKI.path("no-such-root.pem")
        let evaluator = DefaultTrustEvaluator(anchors: .files([path]))
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-chain.pem"))
        #expect(refusal == .unreadableFile(path: path, reason: "no such file"))
    }

    @Test func anchorsGivenAsCertificatesWork() throws {
        let evaluator = DefaultTrustEvaluator(anchors: .certificates(try TrustFixtures.certificates("server-root.pem")))
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-chain.pem")) == nil)
    }
}
