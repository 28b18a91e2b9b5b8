import Foundation
import MirrorTestSupport
import Testing

/// System and extra CAs together (`--cacert FILE --ca-native`, `"system": true`): OpenSSL's
/// default store stands in for the system CAs through `SSL_CERT_FILE`/`SSL_CERT_DIR` in the
/// child's environment, holding server CA A; `--cacert` passes CA B; a server from each
/// verifies, a server from a third CA does not.
@Suite(.serialized) struct SystemAndExtraCATests {
    struct Fixture: Sendable {
        let fromSystem: NginxFixture
        let fromCacert: NginxFixture
        let fromNeither: NginxFixture
        let emptyDirectory: TemporaryDirectory
    }

    static let fixture = Result { () throws -> Fixture in
        let system = try NginxFixture(servers: [.plainTLS], pki: try TestPKI.shared())
        let extra = try NginxFixture(servers: [.plainTLS], pki: try TestPKI.generate())
        let neither = try NginxFixture(servers: [.plainTLS], pki: try TestPKI.generate())
        for nginx in [system, extra, neither] { try nginx.site.write("index.html", "<p>hello</p>") }
        return Fixture(fromSystem: system, fromCacert: extra, fromNeither: neither, emptyDirectory: try TemporaryDirectory())
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    /// The "system store" of the child: CA A only.
    func environment(_ f: Fixture) -> [String: String] {
        ["SSL_CERT_FILE": f.fromSystem.pki.path("server-root.pem"), "SSL_CERT_DIR": f.emptyDirectory.path, "NO_COLOR": "1"]
    }

    func fetch(_ f: Fixture, _ server: NginxFixture, _ options: [String]) -> CommandRunner.Result {
        runner.run(["fetch", server.url(.plainTLS)] + options, environment: environment(f), timeout: 60)
    }

    @Test func withTheFlagAChainToEitherAnchorPassesAndAThirdFails() throws {
        let f = try Self.fixture.get()
        let options = ["--cacert", f.fromCacert.pki.path("server-root.pem"), "--ca-native"]
        let a = fetch(f, f.fromSystem, options)
        #expect(a.exitCode == 0 && a.stdout.contains("hello"), "\(a)")
        let b = fetch(f, f.fromCacert, options)
        #expect(b.exitCode == 0 && b.stdout.contains("hello"), "\(b)")
        let c = fetch(f, f.fromNeither, options)
        #expect(c.exitCode == 4, "\(c)")
        #expect(c.stderr.contains("unable to get local issuer certificate"), "\(c.stderr)")
    }

    @Test func withoutTheFlagCacertReplacesTheSystemStore() throws {
        let f = try Self.fixture.get()
        let options = ["--cacert", f.fromCacert.pki.path("server-root.pem")]
        #expect(fetch(f, f.fromSystem, options).exitCode == 4)
        #expect(fetch(f, f.fromCacert, options).exitCode == 0)
        // And with no --cacert at all, the system store (here: SSL_CERT_FILE) alone decides.
        #expect(fetch(f, f.fromSystem, []).exitCode == 0)
        #expect(fetch(f, f.fromCacert, []).exitCode == 4)
    }

    @Test func inspectSaysWhichAnchorVerifiedTheChain() throws {
        let f = try Self.fixture.get()
        let extraRoot = f.fromCacert.pki.path("server-root.pem")
        let options = ["--cacert", extraRoot, "--ca-native"]
        let a = runner.run(["inspect", f.fromSystem.url(.plainTLS)] + options, environment: environment(f), timeout: 60)
        #expect(a.exitCode == 0, "\(a)")
        #expect(a.stdout.contains("PASS  default"), "\(a.stdout)")
        #expect(a.stdout.contains("from the system store"), "\(a.stdout)")
        let b = runner.run(["inspect", f.fromCacert.url(.plainTLS), "--json"] + options, environment: environment(f), timeout: 60)
        #expect(b.exitCode == 0, "\(b)")
        #expect(b.stdout.contains(#""file" : "\#(extraRoot)""#), "\(b.stdout)")
        let c = runner.run(["inspect", f.fromNeither.url(.plainTLS)] + options, environment: environment(f), timeout: 60)
        #expect(c.exitCode == 4, "\(c)")
        #expect(c.stdout.contains("FAIL  default"))
    }

    @Test func theConfigKeySystemAddsTheSystemStoreToCacert() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let policy = #"{"type": "default", "cacert": ["\#(f.fromCacert.pki.path("server-root.pem"))"], "system": true}"#
        func site(_ name: String, _ server: NginxFixture) -> String {
            #"{"name": "\#(name)", "start": ["\#(server.url(.plainTLS))"], "trust": {"default": \#(policy)}}"#
        }
        let config = output.appending("config.json")
        try #"{"output": "\#(output.path)/out", "sites": [\#(site("a", f.fromSystem)), \#(site("b", f.fromCacert)), \#(site("c", f.fromNeither))]}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let result = runner.run(["mirror", "--config", config.path], environment: environment(f), timeout: 120)
        // Site c fails its trust check: the run is partial, a and b are published.
        #expect(result.exitCode == 10, "\(result)")
        #expect(FileManager.default.fileExists(atPath: output.appending("out/a/current/index.html").path))
        #expect(FileManager.default.fileExists(atPath: output.appending("out/b/current/index.html").path))
        #expect(!FileManager.default.fileExists(atPath: output.appending("out/c/current").path))
        // "system": false without cacert would leave no anchor at all: refused.
        try #"{"sites": [{"name": "x", "start": ["https://localhost/"], "trust": {"default": {"type": "default", "system": false}}}]}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let refused = runner.run(["mirror", "--config", config.path], environment: environment(f), timeout: 60)
        #expect(refused.exitCode == 2, "\(refused)")
        #expect(refused.stderr.contains("system"), "\(refused.stderr)")
    }
}
