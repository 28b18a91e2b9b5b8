import Foundation
import MirrorTestSupport
import Testing

/// Hardware-backed identities end to end: a real SoftHSM2 token whose RSA key was generated
/// inside it as never extractable, a client certificate for it from the test client CA, nginx
/// with `ssl_verify_client on`, and the built binary. Every failure case checks its own exit
/// code (13 wrong PIN, 14 token absent, 15 key absent, 16 module missing).
@Suite(.serialized) struct TokenIdentityTests {
    struct Fixture: Sendable {
        let nginx: NginxFixture
        let token: SoftHSMToken
    }

    static let fixture = Result { () throws -> Fixture in
        let nginx = try NginxFixture(.mtls)
        try nginx.site.write("index.html", #"<h1>token site</h1><a href="b.html">b</a><img src="i.png">"#)
        try nginx.site.write("b.html", "<p>second page</p>")
        try nginx.site.write("i.png", "not really a png")
        return Fixture(nginx: nginx, token: try SoftHSMToken(pki: nginx.pki))
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    func run(_ f: Fixture, _ arguments: [String], pin: String? = nil) -> CommandRunner.Result {
        let result = runner.run(arguments, environment: f.token.environment(pinVariable: "TOKEN_PIN", pin: pin), timeout: 120)
        #expect(!result.timedOut)
        #expect(!result.killedBySignal, "the tool crashed: \(result)")
        #expect(!result.stderr.contains(pin ?? f.token.pin))
        #expect(!result.stdout.contains(pin ?? f.token.pin))
        return result
    }

    func mirror(_ f: Fixture, _ output: TemporaryDirectory, cert: String, key: [String] = [], pin: String? = nil) -> CommandRunner.Result {
        run(f, ["mirror", f.nginx.url(.mtls), "-o", output.path, "--name", "site", "--cacert", f.nginx.pki.path("server-root.pem"),
                "--cert", cert] + key + ["--pass-env", "TOKEN_PIN", "-j", "4"], pin: pin)
    }

    @Test func theTokenKeyIsNeverExtractable() throws {
        let f = try Self.fixture.get()
        let objects = try f.token.listObjects()
        let privateKey = objects.components(separatedBy: "Private Key Object").dropFirst().first ?? ""
        #expect(privateKey.contains("never extractable"), "\(objects)")
        #expect(privateKey.contains("sensitive"))
    }

    @Test func mirrorsWithTheKeyAndCertificateOnTheToken() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = mirror(f, output, cert: f.token.uri())
        #expect(result.exitCode == 0, "\(result)")
        let current = output.url.appendingPathComponent("site/current")
        #expect(try String(contentsOf: current.appendingPathComponent("index.html"), encoding: .utf8).contains("token site"))
        #expect(FileManager.default.fileExists(atPath: current.appendingPathComponent("b.html").path))
        // nginx verified the token's certificate (with the intermediate read from the token too).
        let entries = f.nginx.accessLogEntries(for: .mtls, atLeast: 3) { $0.target == "/b.html" || $0.target == "/" }
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.clientSubject == f.token.subject && $0.status == 200 }, "\(entries)")
    }

    @Test func mirrorsWithTheCertificateFromAFileAndTheKeyOnTheToken() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = mirror(f, output, cert: f.token.certificateChainFile, key: ["--key", f.token.uri()])
        #expect(result.exitCode == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: output.appending("site/current/b.html").path))
    }

    @Test func aConfigFileNamesTheTokenAndItsPINByReference() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let config = output.appending("config.json")
        let json = """
            {"output": "\(output.path)/out", "sites": [{"name": "tok", "start": ["\(f.nginx.url(.mtls))"],
              "identity": {"cert": "\(f.token.uri())", "password": {"env": "TOKEN_PIN"}},
              "trust": {"default": {"type": "default", "cacert": ["\(f.nginx.pki.path("server-root.pem"))"]}}}]}
            """
        try json.write(to: config, atomically: true, encoding: .utf8)
        let result = run(f, ["mirror", "--config", config.path])
        #expect(result.exitCode == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: output.appending("out/tok/current/b.html").path))
        // A PIN written into the URI is a config error, and the PIN is not repeated.
        let leaking = json.replacingOccurrences(of: f.token.uri(), with: f.token.uri(extra: ";pin-value=\(f.token.pin)"))
        try leaking.write(to: config, atomically: true, encoding: .utf8)
        let refused = run(f, ["mirror", "--config", config.path])
        #expect(refused.exitCode == 2, "\(refused)")
    }

    @Test func inspectNamesTheTokenAndTheKey() throws {
        let f = try Self.fixture.get()
        let result = run(f, ["inspect", f.nginx.url(.mtls), "--cacert", f.nginx.pki.path("server-root.pem"),
                             "--cert", f.token.uri(), "--pass-env", "TOKEN_PIN"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("token:   '\(f.token.label)' (SoftHSM project SoftHSM v2"), "\(result.stdout)")
        #expect(result.stdout.contains("key:     '\(f.token.keyLabel)' id %01, on the token"))
        #expect(result.stdout.contains("cert:    from token"))
        #expect(result.stdout.contains("accepted by the server (HTTP 200)"))
        let json = run(f, ["inspect", f.nginx.url(.mtls), "--cacert", f.nginx.pki.path("server-root.pem"),
                           "--cert", f.token.certificateChainFile, "--key", f.token.uri(), "--pass-env", "TOKEN_PIN", "--json"])
        #expect(json.exitCode == 0, "\(json)")
        #expect(json.stdout.contains(#""tokenLabel" : "\#(f.token.label)""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""certificateSource" : "\#(f.token.certificateChainFile)""#))
    }

    /// Each failure: the argument change, the exit code, and what the one-line error must say.
    static let failures: [(name: String, exit: Int32, message: String)] = [
        ("wrong PIN", 13, "wrong PIN for token 'mirror-test'"),
        ("token absent", 14, "no token matching token 'no-such-token' is present"),
        ("key absent", 15, "token 'mirror-test' has no private key with object 'no-such-key'"),
        ("certificate absent", 15, "token 'mirror-test' has no certificate with object 'no-such-cert'"),
        ("module missing", 16, "the PKCS#11 module /usr/lib/x86_64-linux-gnu/pkcs11/libvendor-missing.so is not installed"),
        ("softhsm module missing", 16, "apt-get install softhsm2"),
        // A file that is there but is no PKCS#11 module: it used to crash the process (the
        // failed context was freed twice).
        ("not a module", 16, "the PKCS#11 module /usr/lib/x86_64-linux-gnu/libz.so.1 could not be loaded"),
        ("PIN in the URI", 2, "carries a PIN"),
    ]

    @Test(arguments: failures)
    func failsWithItsOwnExitCode(_ failure: (name: String, exit: Int32, message: String)) throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        var cert = f.token.uri()
        var key: [String] = []
        var pin: String?
        switch failure.name {
        case "wrong PIN": pin = "0000-wrong"
        case "token absent": cert = f.token.uri(token: "no-such-token")
        case "key absent": cert = f.token.certificateChainFile; key = ["--key", f.token.uri(object: "no-such-key")]
        case "certificate absent": cert = f.token.uri(object: "no-such-cert"); key = ["--key", f.token.uri()]
        case "module missing": key = ["--pkcs11-module", "/usr/lib/x86_64-linux-gnu/pkcs11/libvendor-missing.so"]
        case "softhsm module missing": cert = f.token.uri(extra: "?module-path=/opt/nowhere/libsofthsm2.so")
        case "not a module": key = ["--pkcs11-module", "/usr/lib/x86_64-linux-gnu/libz.so.1"]
        case "PIN in the URI": cert = f.token.uri(extra: ";pin-value=Kx9q-pin")
        default: Issue.record("unknown case \(failure.name)")
        }
        let result = mirror(f, output, cert: cert, key: key, pin: pin)
        #expect(result.exitCode == failure.exit, "\(result)")
        #expect(result.stderr.contains(failure.message), "\(result.stderr)")
        #expect(result.stderr.contains("try:"), "\(result.stderr)")
        #expect(!result.stderr.contains("Kx9q"))  // letters no UUID in a temporary path has
        // Nothing was fetched, nothing was published.
        #expect(!FileManager.default.fileExists(atPath: output.appending("site/current").path))
    }

    @Test func aWrongPINSaysWhatTheTokenReportsAndARightOneStillWorks() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let first = mirror(f, output, cert: f.token.uri(), pin: "bad-1")
        #expect(first.exitCode == 13, "\(first)")
        let second = mirror(f, output, cert: f.token.uri(), pin: "bad-2")
        #expect(second.exitCode == 13)
        // SoftHSM2 sets CKF_USER_PIN_COUNT_LOW after a failure; libp11 reads it back.
        #expect(second.stderr.contains("tries are running low") || second.stderr.contains("ONE try"), "\(second.stderr)")
        let good = mirror(f, output, cert: f.token.uri())
        #expect(good.exitCode == 0, "\(good)")
    }
}
