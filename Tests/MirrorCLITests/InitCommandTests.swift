import Foundation
import MirrorCore
import MirrorTestSupport
import MirrorTLS
import Testing
@testable import MirrorCLI

/// `mtls-mirror init` in process against a real nginx that requires a client certificate: a
/// CA-issued server gets the chain check plus key pins; a self-signed one gets its certificate pinned.
@Suite(.serialized) struct InitCommandTests {
    static let nginx = Result { try NginxFixture(.mtls, .selfSigned) }

    func runInit(_ arguments: [String]) async throws -> ExitCode {
        setenv("INIT_TEST_PASS", try Self.nginx.get().pki.password, 1)
        let parsed = try ArgumentParser.parse(arguments, spec: InitCommand.spec)
        return try await InitCommand(arguments: parsed, logger: .silent).run()
    }

    @Test("a CA-verified server: default with the CA plus pins of the leaf and the issuing CA, as inspect prints them")
    func verifiedChain() async throws {
        let nginx = try Self.nginx.get()
        let folder = try TemporaryDirectory(prefix: "init-ca")
        let config = folder.path + "/config.json"
        let code = try await runInit([nginx.url(.mtls), "--cert", nginx.pki.path("client.p12"), "--pass-env", "INIT_TEST_PASS",
                                      "--cacert", nginx.pki.path("server-root.pem"), "-o", config, "--name", "intranet"])
        #expect(code == .success)
        let loaded = try MirrorConfig.load(path: config)
        let site = try #require(loaded.sites.first)
        #expect(site.name == "intranet")
        #expect(site.identity?.certificate == nginx.pki.path("client.p12"))
        #expect(site.identity?.password == .environment("INIT_TEST_PASS"))
        let leafPin = try #require(try CertificateInfo.loadPEMFile(nginx.pki.path("server.pem")).first).pin
        let issuerPin = try #require(try CertificateInfo.loadPEMFile(nginx.pki.path("server-int.pem")).first).pin
        guard case .composite(let members)? = site.trust.defaultPolicy else {
            Issue.record("expected a composite policy, got \(String(describing: site.trust.defaultPolicy))")
            return
        }
        #expect(members.contains(.default(anchors: [nginx.pki.path("server-root.pem")], verifyHost: true)))
        #expect(members.contains(.publicKeys(pins: [leafPin, issuerPin], requireChain: false,
                                              anchors: [], verifyHost: true)))
        let text = try String(contentsOfFile: config, encoding: .utf8)
        #expect(text.contains("$comment"))
        #expect(!text.contains(nginx.pki.password), "the password is never written")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/server-cert.pem"))
        let mode = try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a self-signed server: its certificate is pinned and saved beside the config")
    func selfSigned() async throws {
        let nginx = try Self.nginx.get()
        let folder = try TemporaryDirectory(prefix: "init-self")
        let config = folder.path + "/site.json"
        let code = try await runInit([nginx.url(.selfSigned), "--cert", nginx.pki.path("client-chain.pem"),
                                      "--key", nginx.pki.path("client.key"), "-o", config])
        #expect(code == .success)
        let site = try #require(try MirrorConfig.load(path: config).sites.first)
        #expect(site.name == "localhost_\(nginx.port(.selfSigned))")
        #expect(site.identity?.key == nginx.pki.path("client.key"))
        #expect(site.identity?.password == nil)
        let saved = folder.path + "/server-cert.pem"
        #expect(site.trust.defaultPolicy == .pinnedCertificates(certificates: [saved], requireChain: false, anchors: [], verifyHost: true))
        let pinned = try CertificateInfo.loadPEMFile(saved)
        let presented = try CertificateInfo.loadPEMFile(nginx.pki.path("server-selfsigned.pem"))
        #expect(pinned == presented)
        #expect(try String(contentsOfFile: config, encoding: .utf8).contains("did NOT verify"))
    }

    @Test("an existing config is kept without --force and replaced with it")
    func refusesToOverwrite() async throws {
        let nginx = try Self.nginx.get()
        let folder = try TemporaryDirectory(prefix: "init-force")
        let config = folder.path + "/config.json"
        try "{\"keep\": true}".write(toFile: config, atomically: true, encoding: .utf8)
        let arguments = [nginx.url(.mtls), "--cert", nginx.pki.path("client.p12"), "--pass-env", "INIT_TEST_PASS",
                         "--cacert", nginx.pki.path("server-root.pem"), "-o", config]
        await #expect(throws: UsageError.self) { try await runInit(arguments) }
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "{\"keep\": true}")
        #expect(try await runInit(arguments + ["--force"]) == .success)
        #expect(try MirrorConfig.load(path: config).sites.count == 1)
    }

    @Test(arguments: [
        ([] as [String], "exactly one URL"),
        (["http://localhost/", "--cert", "x.p12"], "https"),
        (["https://localhost/"], "--cert"),
        (["https://localhost/", "--cert", "x.p12", "--name", "../up"], "safe folder name"),
    ])
    func usageErrors(arguments: [String], mentions: String) async throws {
        let parsed = try ArgumentParser.parse(arguments, spec: InitCommand.spec)
        await #expect {
            _ = try await InitCommand(arguments: parsed, logger: .silent).run()
        } throws: { error in
            (error as? UsageError)?.message.contains(mentions) == true
        }
    }

    @Test("the starter config escapes strings and loads with both trust shapes")
    func starterConfigRenders() throws {
        let folder = try TemporaryDirectory(prefix: "init-render")
        let pem = folder.path + "/server-cert.pem"
        try "x".write(toFile: pem, atomically: true, encoding: .utf8)
        #expect(StarterConfig.quote("a\"b\\c\n\u{1}") == "\"a\\\"b\\\\c\\n\\u0001\"")
        let pin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        for trust in [StarterConfig.Trust.verifiedChain(cacert: [], pins: [pin]), .pinnedCertificate(certificateFile: pem, verifyHost: false)] {
            let config = StarterConfig(name: "site", start: "https://example.test/", certificate: "/tmp/me.p12", key: nil,
                                       password: .file("/tmp/pass"), trust: trust)
            let loaded = try MirrorConfig.parse(Data(config.json.utf8), path: folder.path + "/c.json")
            #expect(loaded.sites.first?.identity?.password == .file("/tmp/pass"))
            #expect(loaded.sites.first?.trust.defaultPolicy != nil)
        }
    }
}
