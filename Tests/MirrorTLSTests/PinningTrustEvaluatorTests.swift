import Foundation
import Testing
@testable import MirrorTLS

@Suite struct PinnedCertificatesTrustEvaluatorTests {
    @Test func pinnedSelfSignedServerPasses() throws {
        // Given the self-signed server certificate pinned
        let pinned = try TrustFixtures.certificates("server-selfsigned.pem")
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: pinned)
        // Then the self-signed server passes without any chain verification
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-selfsigned.pem")) == nil)
    }

    @Test func unpinnedServerFailsWithBothFingerprints() throws {
        let pinned = try TrustFixtures.certificates("server-selfsigned.pem")
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: pinned, anchors: try TrustFixtures.serverRoot())
        let trust = try TrustFixtures.trust("server-chain.pem")
        let refusal = TrustFixtures.refusal(evaluator, trust)
        #expect(refusal == .certificatePinMismatch(
            policy: "pinned-certificates", host: "localhost",
            pinned: pinned.map(\.sha256), presented: trust.chain.map(\.sha256)))
        #expect(refusal?.hint.contains("mtls-mirror inspect") == true)
    }

    @Test func requireChainRefusesAPinnedSelfSignedServer() throws {
        let pinned = try TrustFixtures.certificates("server-selfsigned.pem")
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: pinned, requireChain: true)
        guard case .chainInvalid = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-selfsigned.pem")) else {
            Issue.record("requireChain accepted an unverifiable chain")
            return
        }
    }

    @Test func pinnedIntermediateCountsOnlyInAVerifiedChain() throws {
        let intermediate = try TrustFixtures.certificates("server-int.pem")
        let verifying = PinnedCertificatesTrustEvaluator(certificates: intermediate, anchors: try TrustFixtures.serverRoot())
        let unverified = PinnedCertificatesTrustEvaluator(certificates: intermediate)
        let trust = try TrustFixtures.trust("server-chain.pem")
        #expect(TrustFixtures.refusal(verifying, trust) == nil)
        guard case .certificatePinMismatch = TrustFixtures.refusal(unverified, trust) else {
            Issue.record("an appended CA certificate satisfied the pin without a verified chain")
            return
        }
    }

    @Test func pinnedLeafStillChecksTheHost() throws {
        let pinned = try TrustFixtures.certificates("server-selfsigned.pem")
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: pinned)
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-selfsigned.pem", host: "other.example"))
        guard case .hostnameMismatch = refusal else { Issue.record("got \(String(describing: refusal))"); return }
    }
}

@Suite struct PublicKeysTrustEvaluatorTests {
    @Test func correctPinPasses() throws {
        let leaf = try #require(try TrustFixtures.certificates("server-selfsigned.pem").first)
        let evaluator = PublicKeysTrustEvaluator(pins: [leaf.pin])
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-selfsigned.pem")) == nil)
    }

    @Test func oneOfTwoPinsPassesForKeyRotation() throws {
        let old = try #require(try TrustFixtures.certificates("server-selfsigned.pem").first)
        let new = try #require(try TrustFixtures.certificates("server.pem").first)
        let evaluator = PublicKeysTrustEvaluator(pins: [old.pin, new.pin], anchors: try TrustFixtures.serverRoot())
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-chain.pem")) == nil)
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-selfsigned.pem")) == nil)
    }

    @Test func wrongPinFailsWithThePresentedPins() throws {
        let other = try #require(try TrustFixtures.certificates("server-selfsigned.pem").first)
        let evaluator = PublicKeysTrustEvaluator(pins: [other.pin])
        let trust = try TrustFixtures.trust("server-chain.pem")
        let refusal = TrustFixtures.refusal(evaluator, trust)
        #expect(refusal == .publicKeyPinMismatch(
            policy: "public-keys", host: "localhost", pinned: [other.pin], presented: trust.chain.map(\.pin)))
        #expect(refusal?.summary.contains(trust.chain[0].pin) == true)
    }

    @Test func intermediatePinPassesOnlyWhenTheChainVerifies() throws {
        let intermediate = try #require(try TrustFixtures.certificates("server-int.pem").first)
        let trust = try TrustFixtures.trust("server-chain.pem")
        let verifying = PublicKeysTrustEvaluator(pins: [intermediate.pin], anchors: try TrustFixtures.serverRoot())
        let unverified = PublicKeysTrustEvaluator(pins: [intermediate.pin])
        #expect(TrustFixtures.refusal(verifying, trust) == nil)
        guard case .publicKeyPinMismatch = TrustFixtures.refusal(unverified, trust) else {
            Issue.record("an intermediate pin passed on an unverified chain")
            return
        }
    }

    @Test func requireChainRefusesASelfSignedServerWithTheRightPin() throws {
        let leaf = try #require(try TrustFixtures.certificates("server-selfsigned.pem").first)
        let evaluator = PublicKeysTrustEvaluator(pins: [leaf.pin], requireChain: true)
        guard case .chainInvalid = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-selfsigned.pem")) else {
            Issue.record("requireChain accepted an unverifiable chain")
            return
        }
    }

    static let validA = "sha256//" + Data(repeating: 0xAB, count: 32).base64EncodedString()
    static let validB = "sha256//" + Data(repeating: 0x01, count: 32).base64EncodedString()

    @Test(arguments: [
        (validA, [validA]),
        (validA + ";" + validB, [validA, validB]),
        (" " + validA + " ; " + validB + " ", [validA, validB]),
        (validA + ";" + validA, [validA]),
    ])
    func parsePinsAccepts(input: String, expected: [String]) throws {
        #expect(try PublicKeysTrustEvaluator.parsePins(input) == expected)
    }

    @Test(arguments: [
        ("", "empty pin"),
        (validA + ";", "empty pin"),
        ("sha1//" + Data(repeating: 1, count: 20).base64EncodedString(), "must start with sha256//"),
        (String(validA.dropFirst("sha256//".count)), "must start with sha256//"),
        ("sha256//not*base64!", "not valid base64"),
        ("sha256//" + Data(repeating: 1, count: 20).base64EncodedString(), "decodes to 20 bytes"),
    ])
    func parsePinsRejects(input: String, reasonFragment: String) {
        do {
            _ = try PublicKeysTrustEvaluator.parsePins(input)
            Issue.record("accepted \(input)")
        } catch {
            guard case let .invalidPin(_, reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.contains(reasonFragment))
        }
    }

    @Test(arguments: ["server.pem", "server-int.pem", "server-selfsigned.pem", "client.pem"])
    func pinMatchesTheOpenSSLCommandLine(file: String) throws {
        // Given the pin computed by the openssl command line, as curl documents it
        let path = try TestPKI.path(file)
        let command = "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der"
            + " | openssl dgst -sha256 -binary | base64"
        let result = try TestPKI.runProcess("/bin/sh", ["-c", command])
        #expect(result.status == 0)
        // Then CertificateInfo.pin is the same
        let info = try #require(try CertificateInfo.loadPEMFile(path).first)
        #expect(info.pin == "sha256//" + result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
