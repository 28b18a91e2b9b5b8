import Foundation
import MirrorTestSupport
import MirrorTLS
import Testing
@testable import MirrorCLI

/// The config's trust table turned into real MirrorTLS evaluators, checked against the test PKI.
@Suite struct ConfigTrustTests {
    @Test func trustTableBuildsTheEvaluatorsItNames() throws {
        let pki = try TestPKI.shared()
        let fixture = try ConfigFixture()
        let server = try CertificateInfo.loadPEMFile(pki.path("server-chain.pem"))
        let pin = try #require(server.first?.pin)
        let config = try fixture.load("""
            {"sites": [{"name": "a", "start": ["https://localhost/"],
              "trust": {"default": {"type": "default", "cacert": ["\(pki.path("server-root.pem"))"]},
                        "hosts": {"localhost": {"type": "composite", "policies": [
                                     {"type": "pinnedCertificates", "certificates": ["\(pki.path("server.pem"))"]},
                                     {"type": "publicKeys", "pins": ["\(pin)"]}]},
                                  "*.lab.example": {"type": "disabled"}}}}]}
            """)
        let manager = try config.sites[0].trust.makeManager()
        #expect(try manager.evaluator(forHost: "localhost").name == "composite(pinned-certificates, public-keys)")
        #expect(try manager.evaluator(forHost: "x.lab.example").name == "disabled")
        #expect(try manager.evaluator(forHost: "elsewhere.example").name == "default")

        // Given the real server chain, when the localhost policy evaluates it, then it passes;
        // given the client chain instead, it fails.
        try manager.evaluator(forHost: "localhost").evaluate(ServerTrust(host: "localhost", chain: server))
        let client = try CertificateInfo.loadPEMFile(pki.path("client-chain.pem"))
        #expect(throws: TrustError.self) {
            try manager.evaluator(forHost: "localhost").evaluate(ServerTrust(host: "localhost", chain: client))
        }
    }

    @Test func tableWithoutDefaultFailsClosedForUnknownHosts() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load("""
            {"sites": [{"name": "a", "start": ["https://a.example/"],
              "trust": {"hosts": {"a.example": {"type": "publicKeys", "pins": ["\(ConfigFixture.pin)"]}}}}]}
            """)
        let manager = try config.sites[0].trust.makeManager()
        #expect(try manager.evaluator(forHost: "a.example").name == "public-keys")
        #expect(throws: TrustError.noEvaluatorForHost(host: "b.example")) { try manager.evaluator(forHost: "b.example") }
    }

    @Test func unparsablePinnedCertificateFailsWhenTheEvaluatorIsBuilt() throws {
        let fixture = try ConfigFixture()
        try Data("not a certificate".utf8).write(to: fixture.directory.appending("junk.pem"))
        let config = try fixture.load(ConfigFixture.site(
            #""trust": {"default": {"type": "pinnedCertificates", "certificates": ["junk.pem"]}}"#))
        #expect(throws: TrustError.self) { try config.sites[0].trust.makeManager() }
    }
}
