import Foundation
import MirrorTestSupport
import Testing

/// Corporate proxies end to end: a real squid on loopback in front of nginx with
/// `ssl_verify_client on`. The mirror goes through CONNECT tunnels only, the origin sees the
/// client certificate, the proxy never sees a request inside a tunnel, a denied CONNECT names
/// the proxy, and an `https_proxy` in the environment is ignored unless asked for.
@Suite(.serialized) struct ProxyTests {
    struct Fixture: Sendable {
        let nginx: NginxFixture
        let squid: SquidFixture
    }

    static let fixture = Result { () throws -> Fixture in
        let nginx = try NginxFixture(.mtls)
        try nginx.site.write("index.html", #"<h1>behind a proxy</h1><a href="a.html">a</a><link rel="stylesheet" href="s.css">"#)
        try nginx.site.write("a.html", "<p>page a</p>")
        try nginx.site.write("s.css", "body { color: red }")
        return Fixture(nginx: nginx, squid: try SquidFixture(httpsWith: nginx.pki))
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    /// The proxy's CA bundle: the server root and its intermediate (squid built with GnuTLS and
    /// `openssl s_server -cert` send the leaf alone).
    func proxyCA(_ f: Fixture) throws -> String {
        let bundle = f.nginx.prefix.appendingPathComponent("proxy-ca.pem")
        let text = try String(contentsOfFile: f.nginx.pki.path("server-root.pem"), encoding: .utf8)
            + String(contentsOfFile: f.nginx.pki.path("server-int.pem"), encoding: .utf8)
        try text.write(to: bundle, atomically: true, encoding: .utf8)
        return bundle.path
    }

    /// The child's environment: the P12 password, and no proxy variable unless given.
    func environment(_ f: Fixture, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["MIRROR_TEST_PASS": f.nginx.pki.password, "NO_COLOR": "1",
                           "https_proxy": "", "HTTPS_PROXY": "", "http_proxy": "", "all_proxy": "", "ALL_PROXY": "",
                           "no_proxy": "", "NO_PROXY": ""]
        environment.merge(extra) { _, new in new }
        return environment
    }

    func mirror(_ f: Fixture, _ output: TemporaryDirectory, _ extra: [String], environment: [String: String] = [:]) -> CommandRunner.Result {
        let result = runner.run(
            ["mirror", f.nginx.url(.mtls), "-o", output.path, "--name", "site", "--cacert", f.nginx.pki.path("server-root.pem"),
             "--cert", f.nginx.pki.path("client.p12"), "--pass-env", "MIRROR_TEST_PASS", "-j", "4"] + extra,
            environment: self.environment(f, environment), timeout: 120)
        #expect(!result.timedOut)
        return result
    }

    func report(_ output: TemporaryDirectory) throws -> [String: Any] {
        let data = try Data(contentsOf: output.appending("site/current/_mirror/report.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test func mirrorsThroughSquidWhichSeesOnlyConnects() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let before = f.squid.accessLog(atLeast: 0, timeout: 0).count
        let result = mirror(f, output, ["--proxy", f.squid.httpURL])
        #expect(result.exitCode == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: output.appending("site/current/a.html").path))
        let lines = Array(f.squid.accessLog(atLeast: before + 1).dropFirst(before))
        #expect(!lines.isEmpty)
        let origin = "localhost:\(f.nginx.port(.mtls))"
        #expect(lines.allSatisfy { $0.hasPrefix("CONNECT \(origin) 200 TCP_TUNNEL") }, "\(lines)")
        // Inside the tunnels: TLS to nginx, which saw the client certificate on every request.
        let entries = f.nginx.accessLogEntries(for: .mtls, atLeast: 3) { $0.target == "/a.html" || $0.target == "/s.css" }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.clientSubject.contains("mirror-client-1") && $0.status == 200 }, "\(entries)")
        #expect((try report(output)["proxy"] as? String)?.contains(f.squid.httpURL) == true)
    }

    @Test func anHTTPSProxyIsVerifiedByItsOwnCAAndTheTunnelStillCarriesTheIdentity() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        guard let proxyURL = f.squid.httpsURL else { Issue.record("squid has no https_port"); return }
        let before = f.squid.accessLog(atLeast: 0, timeout: 0).count
        let result = mirror(f, output, ["--proxy", proxyURL, "--proxy-cacert", try proxyCA(f)])
        #expect(result.exitCode == 0, "\(result)")
        let lines = Array(f.squid.accessLog(atLeast: before + 1).dropFirst(before))
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("CONNECT localhost:\(f.nginx.port(.mtls)) 200") }, "\(lines)")
        // Without the proxy's CA the proxy is refused, and the error names it.
        let untrusted = mirror(f, try TemporaryDirectory(), ["--proxy", proxyURL])
        #expect(untrusted.exitCode == 7, "\(untrusted)")
        #expect(untrusted.stderr.contains("proxy \(proxyURL)"), "\(untrusted.stderr)")
    }

    /// A TLS endpoint posing as an HTTPS proxy that ASKS for a client certificate (`-verify 1`)
    /// and prints the subject of any it receives (`-rev`: it does not read its standard input).
    /// It serves two connections: the readiness probe, then the client's.
    func fakeProxy(_ f: Fixture, client: @Sendable (UInt16) -> Void) throws -> CommandRunner.Result {
        let port = try FreePort.reserve()
        let openssl = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/openssl"))
        let pki = f.nginx.pki
        let server = Task.detached {
            openssl.run(["s_server", "-accept", "\(port)", "-cert", pki.path("server-chain.pem"), "-key", pki.path("server.key"),
                         "-verify", "1", "-naccept", "2", "-rev"], timeout: 30)
        }
        var waited = 0
        while !FreePort.isAccepting(port), waited < 100 { usleep(50_000); waited += 1 }
        client(port)
        return try awaitResult(server)
    }

    @Test func theClientCertificateIsNeverPresentedToAnHTTPSProxy() throws {
        let f = try Self.fixture.get()
        let proxyCA = try proxyCA(f)
        // The detector works: a client that does present its certificate shows up.
        let control = try fakeProxy(f) { port in
            _ = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/openssl")).run(
                ["s_client", "-connect", "127.0.0.1:\(port)", "-quiet", "-cert", f.nginx.pki.path("client.pem"), "-key", f.nginx.pki.path("client.key")],
                stdin: Data("CONNECT x:1 HTTP/1.1\r\n\r\n".utf8), timeout: 10)
        }
        #expect((control.stdout + control.stderr).contains("CN = mirror-client-1"), "\(control)")
        // The tool, with its identity configured, completes the proxy handshake without it.
        let runner = self.runner
        let environment = self.environment(f)
        let seen = try fakeProxy(f) { port in
            let result = runner.run(
                ["fetch", f.nginx.url(.mtls), "--cacert", f.nginx.pki.path("server-root.pem"), "--cert", f.nginx.pki.path("client.p12"),
                 "--pass-env", "MIRROR_TEST_PASS", "--proxy", "https://localhost:\(port)", "--proxy-cacert", proxyCA, "--max-time", "3"],
                environment: environment, timeout: 60)
            #expect(result.exitCode == 7, "\(result)")
        }
        // s_server prints the handshake and any certificate's subject on both of its outputs.
        #expect((seen.stdout + seen.stderr).contains("CONNECTION ESTABLISHED"), "\(seen)")
        #expect(!seen.stdout.contains("mirror-client") && !seen.stderr.contains("mirror-client"), "\(seen)")
    }

    @Test func aDeniedConnectNamesTheProxy() throws {
        let f = try Self.fixture.get()
        let strict = try SquidFixture(deniedPort: f.nginx.port(.mtls))
        let result = runner.run(
            ["fetch", f.nginx.url(.mtls, path: "/a.html"), "--cacert", f.nginx.pki.path("server-root.pem"),
             "--cert", f.nginx.pki.path("client.p12"), "--pass-env", "MIRROR_TEST_PASS", "--proxy", strict.httpURL],
            environment: environment(f), timeout: 60)
        #expect(result.exitCode == 7, "\(result)")
        #expect(result.stderr.contains("the proxy \(strict.httpURL) refused the tunnel to \(f.nginx.url(.mtls, path: "/a.html")): CONNECT answered HTTP 403"), "\(result.stderr)")
        #expect(result.stderr.contains("try:"))
        #expect(strict.accessLog().contains { $0.hasPrefix("CONNECT localhost:\(f.nginx.port(.mtls)) 403") })
    }

    @Test func anEnvironmentProxyIsIgnoredUnlessAskedFor() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let before = f.squid.accessLog(atLeast: 0, timeout: 0).count
        let proxyEnvironment = ["https_proxy": f.squid.httpURL, "HTTPS_PROXY": f.squid.httpURL]
        let ignored = mirror(f, output, [], environment: proxyEnvironment)
        #expect(ignored.exitCode == 0, "\(ignored)")
        usleep(500_000)
        #expect(f.squid.accessLog(atLeast: 0, timeout: 0).count == before, "the environment's proxy was used")
        let summary = try report(output)["proxy"] as? String ?? ""
        #expect(summary.hasPrefix("direct") && summary.contains("https_proxy") && summary.contains("ignored"), "\(summary)")
        let used = mirror(f, try TemporaryDirectory(), ["--proxy-env"], environment: proxyEnvironment)
        #expect(used.exitCode == 0, "\(used)")
        #expect(f.squid.accessLog(atLeast: before + 1).count > before)
    }

    @Test func basicAuthenticationTakesThePasswordByReference() throws {
        let f = try Self.fixture.get()
        let guarded = try SquidFixture(credentials: (user: "alice", password: "Pr0xy-Secret-77"))
        let output = try TemporaryDirectory()
        let passwordFile = output.appending("proxy.pass")
        try "Pr0xy-Secret-77\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        let ok = mirror(f, output, ["--proxy", guarded.httpURL, "--proxy-user", "alice", "--proxy-pass-file", passwordFile.path])
        #expect(ok.exitCode == 0, "\(ok)")
        #expect(!ok.stderr.contains("Pr0xy-Secret-77"))
        let refused = mirror(f, try TemporaryDirectory(), ["--proxy", guarded.httpURL])
        #expect(refused.exitCode == 7, "\(refused)")
        #expect(refused.stderr.contains("CONNECT answered HTTP 407"), "\(refused.stderr)")
        // Credentials inside the URL are refused: they would be in the process list.
        let inURL = mirror(f, try TemporaryDirectory(), ["--proxy", "http://alice:Pr0xy-Secret-77@127.0.0.1:\(guarded.httpPort)"])
        #expect(inURL.exitCode == 2, "\(inURL)")
        #expect(!inURL.stderr.contains("Pr0xy-Secret-77"))
    }

    @Test func aSiteInTheConfigNamesItsProxy() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let before = f.squid.accessLog(atLeast: 0, timeout: 0).count
        let config = output.appending("config.json")
        try """
            {"output": "\(output.path)/out", "sites": [{"name": "p", "start": ["\(f.nginx.url(.mtls))"],
              "proxy": {"url": "\(f.squid.httpURL)", "noProxy": ["example.invalid"]},
              "identity": {"cert": "\(f.nginx.pki.path("client.p12"))", "password": {"env": "MIRROR_TEST_PASS"}},
              "trust": {"default": {"type": "default", "cacert": ["\(f.nginx.pki.path("server-root.pem"))"]}}}]}
            """.write(to: config, atomically: true, encoding: .utf8)
        let result = runner.run(["mirror", "--config", config.path], environment: environment(f), timeout: 120)
        #expect(result.exitCode == 0, "\(result)")
        #expect(f.squid.accessLog(atLeast: before + 1).count > before)
    }

    /// Waits for a detached task's value from synchronous test code.
    func awaitResult(_ task: Task<CommandRunner.Result, Never>) throws -> CommandRunner.Result {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task { box.value = await task.value; done.signal() }
        done.wait()
        return box.value!
    }

    final class ResultBox: @unchecked Sendable { var value: CommandRunner.Result? }
}
