import Foundation
import Testing
@testable import MirrorTLS

/// `DecodedCertificates`: the certificates a `CertificateInfo` was read from, found again by
/// the SHA-256 of their DER instead of being decoded anew.
@Suite struct DecodedCertificatesTests {
    /// A certificate read from a file is handed out again as the same OpenSSL object, and that
    /// object still encodes to the value's DER.
    @Test func aReadCertificateIsHandedOutAgainUndecoded() throws {
        let info = try #require(try CertificateInfo.loadPEMFile(TestPKI.path("server.pem")).first)
        let first = try info.makeX509()
        let second = try info.makeX509()
        #expect(first === second)
        #expect(first.der == info.der)
        #expect(DecodedCertificates.shared.certificate(sha256: info.sha256) === first)
    }

    /// Past its capacity the cache forgets the oldest certificates first, keeps the newest, and
    /// a forgotten one is decoded again, to the same DER.
    @Test func theOldestAreForgottenFirstAndDecodedAgain() throws {
        let cache = DecodedCertificates(capacity: 2)
        let chain = try CertificateInfo.loadPEMFile(TestPKI.path("server-chain.pem"))
        let root = try #require(try CertificateInfo.loadPEMFile(TestPKI.path("server-root.pem")).first)
        let infos = chain + [root]
        #expect(Set(infos.map(\.sha256)).count == 3)
        for info in infos {
            cache.remember(try #require(X509Certificate(der: info.der)), sha256: info.sha256)
        }
        #expect(cache.count == 2)
        #expect(cache.certificate(sha256: infos[0].sha256) == nil)
        #expect(cache.certificate(sha256: infos[1].sha256)?.der == infos[1].der)
        #expect(cache.certificate(sha256: infos[2].sha256)?.der == infos[2].der)
        // Remembering one again changes nothing; many more keep the count at the capacity.
        cache.remember(try #require(X509Certificate(der: infos[2].der)), sha256: infos[2].sha256)
        #expect(cache.count == 2)
        for round in 0..<10 {
            for info in infos { cache.remember(try #require(X509Certificate(der: info.der)), sha256: info.sha256 + "\(round)") }
        }
        #expect(cache.count == 2)
        #expect(cache.certificate(sha256: infos[2].sha256 + "9")?.der == infos[2].der)
        #expect(cache.certificate(sha256: infos[2].sha256) == nil)
    }

    /// The host name check and the chain verification work on remembered certificates as on
    /// fresh ones: the right host passes, a wrong one fails, the chain verifies.
    @Test func checksOnRememberedCertificatesGiveTheSameAnswers() throws {
        let info = try #require(try CertificateInfo.loadPEMFile(TestPKI.path("server.pem")).first)
        #expect(DecodedCertificates.shared.certificate(sha256: info.sha256) != nil)
        #expect(HostnameValidation.matches(info, host: "localhost"))
        #expect(HostnameValidation.matches(info, host: "127.0.0.1"))
        #expect(!HostnameValidation.matches(info, host: "example.com"))
        let verifier = ChainVerifier(anchors: try TrustFixtures.serverRoot())
        let chain = try CertificateInfo.loadPEMFile(TestPKI.path("server-chain.pem"))
        guard case .verified(let verified) = try verifier.verify(chain, at: Date()) else {
            Issue.record("the test chain does not verify")
            return
        }
        #expect(verified.first == chain.first)
        guard case .failed = try verifier.verify(Array(chain.prefix(1)), at: Date()) else {
            Issue.record("a leaf without its intermediate verified")
            return
        }
    }
}
