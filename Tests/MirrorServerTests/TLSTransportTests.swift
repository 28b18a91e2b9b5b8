import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorServer

@Suite("TLS transport", .serialized)
struct TLSTransportTests {
    private func curl(_ arguments: [String]) throws -> CommandRunner.Result {
        let runner = try #require(CommandRunner.forTool(named: "curl"))
        return runner.run(["--silent", "--show-error", "--max-time", "10"] + arguments, timeout: 20)
    }

    @Test("mutual TLS: curl with the client certificate gets the page; without one the handshake fails")
    func mutualTLS() throws {
        let pki = try TestPKI.shared()
        let fixture = try MirrorFixture()
        try fixture.publish(site: "docs", files: ["index.html": "over mTLS"])
        let log = LogCollector()
        var configuration = ServerConfiguration(layout: .single(fixture.site("docs")))
        configuration.tls = ServerTLSConfiguration(
            certificateChainFile: pki.path("server-chain.pem"), privateKeyFile: pki.path("server.key"),
            clientCAFile: pki.path("client-root.pem"))
        configuration.accessLog = { log.append($0) }
        let server = try RunningServer(configuration)
        let url = "https://localhost:\(server.port)/"
        let good = try curl(["--cacert", pki.path("server-root.pem"), "--cert", pki.path("client-chain.pem"),
                             "--key", pki.path("client.key"), "--http1.1", url])
        #expect(good.exitCode == 0, "\(good)")
        #expect(good.stdout == "over mTLS")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(log.entries.first?.clientSubject?.contains("CN=mirror-client-1") == true)
        #expect(log.entries.first?.commonLogFormat.contains("CN=mirror-client-1") == true)
        let anonymous = try curl(["--cacert", pki.path("server-root.pem"), url])
        #expect([35, 56].contains(anonymous.exitCode), "\(anonymous)")
        let rogue = try curl(["--cacert", pki.path("server-root.pem"), "--cert", pki.path("rogue.pem"), "--key", pki.path("rogue.key"), url])
        #expect([35, 56].contains(rogue.exitCode), "\(rogue)")
        let plain = RawClient.get("/", port: server.port)
        #expect(plain?.status != 200)
        #expect(try curl(["--cacert", pki.path("server-root.pem"), "--cert", pki.path("client-chain.pem"),
                          "--key", pki.path("client.key"), url]).stdout == "over mTLS")
    }

    @Test("TLS without a client CA serves anonymous clients, keep-alive across requests, large file")
    func serverOnlyTLS() throws {
        let pki = try TestPKI.shared()
        let fixture = try MirrorFixture()
        let big = String(repeating: "x", count: 300_000)
        try fixture.publish(site: "docs", files: ["index.html": "tls", "big.txt": big])
        var configuration = ServerConfiguration(layout: .single(fixture.site("docs")))
        configuration.tls = ServerTLSConfiguration(certificateChainFile: pki.path("server-chain.pem"), privateKeyFile: pki.path("server.key"))
        let server = try RunningServer(configuration)
        let base = "https://localhost:\(server.port)"
        let result = try curl(["--cacert", pki.path("server-root.pem"), base + "/", base + "/big.txt"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == "tls" + big)
        let tls11 = try curl(["--cacert", pki.path("server-root.pem"), "--tlsv1.1", "--tls-max", "1.1", base + "/"])
        #expect(tls11.exitCode != 0)
    }

    @Test("typed errors for unreadable files and a key that does not match")
    func configurationErrors() throws {
        let pki = try TestPKI.shared()
        let fixture = try MirrorFixture()
        try fixture.publish(site: "docs", files: ["index.html": "x"])
        func start(_ tls: ServerTLSConfiguration) -> ServerError? {
            var configuration = ServerConfiguration(layout: .single(fixture.site("docs")))
            configuration.tls = tls
            do {
                try MirrorServer(configuration: configuration).start()
                return nil
            } catch {
                return error
            }
        }
        let missing = start(ServerTLSConfiguration(certificateChainFile: "/nonexistent.pem", privateKeyFile: pki.path("server.key")))
        guard case .certificateUnreadable(let path, _)? = missing else { Issue.record("got \(String(describing: missing))"); return }
        #expect(path == "/nonexistent.pem")
        let noKey = start(ServerTLSConfiguration(certificateChainFile: pki.path("server-chain.pem"), privateKeyFile: "/nonexistent.key"))
        guard case .privateKeyUnreadable? = noKey else { Issue.record("got \(String(describing: noKey))"); return }
        let mismatch = start(ServerTLSConfiguration(certificateChainFile: pki.path("server-chain.pem"), privateKeyFile: pki.path("client.key")))
        #expect(mismatch == .keyMismatch(certificate: pki.path("server-chain.pem"), key: pki.path("client.key")))
        let badCA = start(ServerTLSConfiguration(certificateChainFile: pki.path("server-chain.pem"), privateKeyFile: pki.path("server.key"),
                                                 clientCAFile: pki.path("garbage.p12")))
        guard case .clientCAUnreadable? = badCA else { Issue.record("got \(String(describing: badCA))"); return }
        #expect(mismatch?.category == .usage)
    }
}
