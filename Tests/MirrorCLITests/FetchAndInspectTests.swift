import Foundation
import MirrorTestSupport
import Testing

/// The built `mtls-mirror` binary against a real nginx with `ssl_verify_client on`: every
/// identity kind and trust policy, positive and negative, with the documented exit codes.
@Suite(.serialized) struct FetchAndInspectTests {
    static let nginx = Result { try NginxFixture(.mtls, .expired, .wrongHost, .revoked, .selfSigned) }

    struct Setup {
        let nginx: NginxFixture
        let pki: TestPKI
        let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))
        init() throws {
            nginx = try FetchAndInspectTests.nginx.get()
            pki = nginx.pki
            try nginx.site.write("page.html", "<h1>protected page</h1>")
        }
        var environment: [String: String] { ["TEST_P12_PASS": pki.password, "NO_COLOR": "1"] }

        func run(_ arguments: [String]) -> CommandRunner.Result {
            let result = runner.run(arguments, environment: environment, timeout: 60)
            // Whatever happened, the password never appears in any output.
            #expect(!result.stdout.contains(pki.password), "password leaked to stdout")
            #expect(!result.stderr.contains(pki.password), "password leaked to stderr")
            #expect(!result.timedOut)
            return result
        }

        func fetch(_ server: NginxFixture.Server, path: String = "/page.html", _ extra: [String]) -> CommandRunner.Result {
            run(["fetch", nginx.url(server, path: path)] + extra)
        }

        func fetch(_ extra: [String]) -> CommandRunner.Result { fetch(.mtls, extra) }

        var ca: [String] { ["--cacert", pki.path("server-root.pem")] }
        var p12: [String] { ["--cert", pki.path("client.p12"), "--pass-env", "TEST_P12_PASS"] }
    }

    // MARK: Positive

    @Test(arguments: [
        ["--cert", "client.p12", "--pass-env", "TEST_P12_PASS"],
        ["--cert", "client-legacy.p12", "--pass-env", "TEST_P12_PASS"],
        ["--cert", "client-chain.pem", "--key", "client.key"],
        ["--cert", "client-chain.pem", "--key", "client-enc.key", "--pass-env", "TEST_P12_PASS"],
        ["--cert", "client-combined.pem"],
        ["--cert", "client.p12", "--cert-type", "P12", "--pass-file", "password.txt"],
    ])
    func fetchesWithEveryIdentityKind(identity: [String]) throws {
        let s = try Setup()
        let args = identity.map { ["client.p12", "client-legacy.p12", "client-chain.pem", "client.key", "client-enc.key", "client-combined.pem", "password.txt"].contains($0) ? s.pki.path($0) : $0 }
        let result = s.fetch(s.ca + args)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == "<h1>protected page</h1>")
    }

    @Test func writesOutputFilesPrivatelyAndAtomically() throws {
        let s = try Setup()
        let directory = try TemporaryDirectory()
        let output = directory.url.appendingPathComponent("page.html").path
        let result = s.fetch(s.ca + s.p12 + ["-o", output])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "<h1>protected page</h1>")
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["page.html"])
    }

    // MARK: Identity errors → 3

    @Test(arguments: [
        (["--cert", "client.p12", "--pass", "not-the-password"], "password"),
        (["--cert", "client-legacy.p12", "--pass", "not-the-password"], "password"),
        (["--cert", "client-chain.pem", "--key", "client-enc.key", "--pass", "wrong"], "password"),
        (["--cert", "garbage.p12", "--pass-env", "TEST_P12_PASS"], "garbage.p12"),
        (["--cert", "cert-only.pem"], "key"),
        (["--cert", "client.pem", "--key", "client2.key"], "does not belong"),
        (["--cert", "client-expired.p12", "--pass-env", "TEST_P12_PASS"], "expired"),
        (["--cert", "client-notyet.pem", "--key", "client-notyet.key"], "valid"),
        (["--cert", "client.p12", "--pass-env", "UNSET_VARIABLE_FOR_TEST"], "UNSET_VARIABLE_FOR_TEST"),
        (["--cert", "does-not-exist.p12", "--pass-env", "TEST_P12_PASS"], "does-not-exist.p12"),
    ])
    func identityErrorsExit3WithACause(arguments: [String], mentions: String) throws {
        let s = try Setup()
        let files = ["client.p12", "client-legacy.p12", "client-chain.pem", "client-enc.key", "garbage.p12", "cert-only.pem",
                     "client.pem", "client2.key", "client-expired.p12", "client-notyet.pem", "client-notyet.key", "does-not-exist.p12"]
        let args = arguments.map { files.contains($0) ? s.pki.path($0) : $0 }
        let result = s.fetch(s.ca + args)
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.lowercased().contains(mentions.lowercased()), "\(result.stderr)")
    }

    @Test func warnsAboutExpiringCertificates() throws {
        let s = try Setup()
        let result = s.fetch(s.ca + ["--cert", s.pki.path("client-expiring.p12"), "--pass-env", "TEST_P12_PASS"])
        #expect(result.stderr.contains("warning"), "\(result)")
        #expect(result.stderr.contains("expire"), "\(result)")
    }

    // MARK: Client certificate rejected → 5

    @Test func missingOrRogueClientCertificateExit5() throws {
        let s = try Setup()
        let none = s.fetch(s.ca)
        #expect(none.exitCode == 5, "\(none)")
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.contains("--cert"))
        let rogue = s.fetch(s.ca + ["--cert", s.pki.path("rogue.p12"), "--pass-env", "TEST_P12_PASS"])
        #expect(rogue.exitCode == 5, "\(rogue)")
        #expect(rogue.stdout.isEmpty)
    }

    // MARK: Server trust → 4

    @Test(arguments: [
        (NginxFixture.Server.expired, "expired"),
        (.wrongHost, "localhost"),
        (.selfSigned, "self"),
    ])
    func untrustedServersExit4(server: NginxFixture.Server, mentions: String) throws {
        let s = try Setup()
        let result = s.fetch(server, s.ca + s.p12)
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.lowercased().contains(mentions), "\(result.stderr)")
    }

    @Test func systemStoreDoesNotTrustTheTestCA() throws {
        let s = try Setup()
        #expect(s.fetch(s.p12).exitCode == 4)
    }

    @Test func noVerifyHostAcceptsTheWrongName() throws {
        let s = try Setup()
        #expect(s.fetch(.wrongHost, s.ca + s.p12 + ["--no-verify-host"]).exitCode == 0)
    }

    @Test func insecureWarnsLoudly() throws {
        let s = try Setup()
        let result = s.fetch(.selfSigned, s.p12 + ["-k"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("DISABLED"))
    }

    @Test func revokedServerWithCRLExits4() throws {
        let s = try Setup()
        let result = s.fetch(.revoked, s.ca + s.p12 + ["--crlfile", s.pki.path("server-crl.pem")])
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.stderr.lowercased().contains("revoked"))
        #expect(s.fetch(.mtls, s.ca + s.p12 + ["--crlfile", s.pki.path("server-crl.pem")]).exitCode == 0)
    }

    @Test func selfSignedServerPinnedByCertificate() throws {
        let s = try Setup()
        let pinned = s.fetch(.selfSigned, s.p12 + ["--pinnedcert", s.pki.path("server-selfsigned.pem")])
        #expect(pinned.exitCode == 0, "\(pinned)")
        let wrongPin = s.fetch(.selfSigned, s.p12 + ["--pinnedcert", s.pki.path("server.pem")])
        #expect(wrongPin.exitCode == 4)
    }

    @Test func inspectPinRoundTripsIntoFetch() throws {
        let s = try Setup()
        let inspect = s.run(["inspect", s.nginx.url(.mtls), "--json"] + s.ca + s.p12)
        #expect(inspect.exitCode == 0, "\(inspect)")
        let json = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
        let chain = try #require(json?["chain"] as? [[String: Any]])
        let pin = try #require(chain.first?["pin"] as? String)
        #expect(pin.hasPrefix("sha256//"))
        #expect(json?["clientAccepted"] as? Bool == true)
        #expect(json?["policyPassed"] as? Bool == true)

        let good = s.fetch(s.p12 + ["--pinnedpubkey", pin])
        #expect(good.exitCode == 0, "\(good)")
        let other = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let bad = s.fetch(s.p12 + ["--pinnedpubkey", other])
        #expect(bad.exitCode == 4, "\(bad)")
        let rotation = s.fetch(s.p12 + ["--pinnedpubkey", "\(other);\(pin)"])
        #expect(rotation.exitCode == 0, "\(rotation)")
    }

    @Test func inspectReportsRejectionAndUntrustedServers() throws {
        let s = try Setup()
        let rogue = s.run(["inspect", s.nginx.url(.mtls)] + s.ca + ["--cert", s.pki.path("rogue.p12"), "--pass-env", "TEST_P12_PASS"])
        #expect(rogue.exitCode == 5, "\(rogue)")
        #expect(rogue.stdout.contains("REJECTED"))
        let expired = s.run(["inspect", s.nginx.url(.expired)] + s.ca + s.p12)
        #expect(expired.exitCode == 4, "\(expired)")
        #expect(expired.stdout.contains("FAIL"))
        #expect(expired.stdout.contains("not sent"))
    }

    // MARK: HTTP, network and usage errors

    @Test func httpErrorExits6AndWritesNothing() throws {
        let s = try Setup()
        let directory = try TemporaryDirectory()
        let output = directory.url.appendingPathComponent("missing.html").path
        let result = s.fetch(.mtls, path: "/no-such-page.html", s.ca + s.p12 + ["-o", output])
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.stderr.contains("404"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func networkErrorExits7() throws {
        let s = try Setup()
        let result = s.run(["fetch", "https://127.0.0.1:\(FreePort.allocate())/"] + s.ca + s.p12)
        #expect(result.exitCode == 7, "\(result)")
    }

    @Test(arguments: [
        ["fetch"], ["fetch", "a", "b"], ["fetch", "https://h/", "--nope"], ["nosuchcommand"],
        ["fetch", "https://h/", "--pinnedpubkey", "md5//abc"], ["fetch", "ftp://h/"],
        ["fetch", "https://h/", "--key", "k.pem"],
    ])
    func usageErrorsExit2(arguments: [String]) throws {
        let s = try Setup()
        let result = s.run(arguments)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains("error"))
    }

    @Test func helpAndVersion() throws {
        let s = try Setup()
        let help = s.run(["fetch", "--help"])
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("--pinnedpubkey"))
        let version = s.run(["--version"])
        #expect(version.exitCode == 0)
        #expect(version.stdout.hasPrefix("mtls-mirror "))
    }
}
