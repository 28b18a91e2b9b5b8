import Foundation
import Testing
@testable import MirrorTestSupport

/// Proves the test harness itself with real parts: nginx, curl, openssl-made certificates.

/// Runs the system `curl` with a short transfer limit.
private func curl(_ args: [String]) throws -> CommandRunner.Result {
    let curl = try #require(CommandRunner.forTool(named: "curl"), "curl is missing; run scripts/install-deps.sh")
    return curl.run(["--silent", "--show-error", "--max-time", "10"] + args, timeout: 30)
}

/// curl options that trust the test servers and present `identity` (a PEM chain + key) if given.
private func tlsOptions(_ pki: TestPKI, identity: (chain: String, key: String)? = nil) -> [String] {
    var options = ["--cacert", pki.path("server-root.pem")]
    if let identity { options += ["--cert", pki.path(identity.chain), "--key", pki.path(identity.key)] }
    return options
}

private let client1 = (chain: "client-chain.pem", key: "client.key")

@Suite struct NginxFixtureTests {
    static let nginx = Result {
        try NginxFixture(.mtls, .expired, .wrongHost, .revoked, .selfSigned, .plainTLS, .optionalClient)
    }

    @Test func mtlsWhoamiReportsTheClientCertificateSubject() throws {
        let nginx = try Self.nginx.get()
        let result = try curl(tlsOptions(nginx.pki, identity: client1) + [nginx.url(.mtls, path: "/whoami")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("CN=mirror-client-1"))
        #expect(result.stdout.contains("mirror-client-2") == false)
    }

    @Test func mtlsAnswers400WithoutAClientCertificate() throws {
        let nginx = try Self.nginx.get()
        let result = try curl(
            tlsOptions(nginx.pki) + ["-o", "/dev/null", "-w", "%{http_code}", nginx.url(.mtls, path: "/whoami")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == "400")
    }

    @Test func mtlsRejectsAClientFromAnUntrustedCA() throws {
        let nginx = try Self.nginx.get()
        let rogue = (chain: "rogue.pem", key: "rogue.key")
        let result = try curl(
            tlsOptions(nginx.pki, identity: rogue)
                + ["-o", "/dev/null", "-w", "%{http_code}", nginx.url(.mtls, path: "/whoami")])
        #expect(result.stdout == "400", "\(result)")
    }

    @Test func servesSiteFilesOverHTTP2OnBothHostNames() throws {
        let nginx = try Self.nginx.get()
        try nginx.site.write("docs/page.html", "<p>harness</p>")
        for url in [nginx.url(.mtls, path: "docs/page.html"), nginx.ipURL(.mtls, path: "/docs/page.html")] {
            let result = try curl(
                tlsOptions(nginx.pki, identity: client1)
                    + ["-w", "\n%{http_code} %{http_version} %{content_type}", url])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout == "<p>harness</p>\n200 2 text/html", "\(url)")
        }
        let missing = try curl(
            tlsOptions(nginx.pki, identity: client1)
                + ["-o", "/dev/null", "-w", "%{http_code}", nginx.url(.mtls, path: "/docs/none.html")])
        #expect(missing.stdout == "404")
    }

    @Test(arguments: [404, 500, 503, 204])
    func statusLocationsAnswerTheirCode(code: Int) throws {
        let nginx = try Self.nginx.get()
        let result = try curl(
            tlsOptions(nginx.pki, identity: client1)
                + ["-o", "/dev/null", "-w", "%{http_code}", nginx.url(.mtls, path: "/status/\(code)")])
        #expect(result.stdout == "\(code)", "\(result)")
    }

    @Test(arguments: [("/redirect", "302"), ("/redirect/301", "301"), ("/redirect/308", "308")])
    func redirectLocationsSendTheGivenTarget(path: String, code: String) throws {
        let nginx = try Self.nginx.get()
        let target = nginx.url(.plainTLS, path: "/landing.html")
        let result = try curl(
            tlsOptions(nginx.pki, identity: client1)
                + ["-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", nginx.url(.mtls, path: "\(path)?to=\(target)")])
        #expect(result.stdout == "\(code) \(target)", "\(result)")
    }

    @Test func plainTLSNeedsNoCertificateAndLogsWhichSubjectWasSent() throws {
        let nginx = try Self.nginx.get()
        try nginx.site.write("plain.txt", "plain")
        let anonymous = try curl(tlsOptions(nginx.pki) + [nginx.url(.plainTLS, path: "/plain.txt")])
        #expect(anonymous.stdout == "plain", "\(anonymous)")
        let leaked = try curl(tlsOptions(nginx.pki, identity: client1) + [nginx.url(.plainTLS, path: "/plain.txt")])
        #expect(leaked.stdout == "plain", "\(leaked)")

        let subjects = nginx.loggedClientSubjects(atLeast: 2)
        #expect(subjects.count == 2, "\(subjects)")
        #expect(subjects.first == "")
        #expect(subjects.last?.contains("CN=mirror-client-1") == true)
    }

    @Test func optionalClientTellsWhichIdentityWasSent() throws {
        let nginx = try Self.nginx.get()
        let url = nginx.url(.optionalClient, path: "/whoami")
        let none = try curl(tlsOptions(nginx.pki) + ["-w", "|%{http_code}", url])
        #expect(none.stdout == "|200", "\(none)")
        let second = try curl(tlsOptions(nginx.pki, identity: ("client2.pem", "client2.key")) + [url])
        #expect(second.stdout.contains("CN=mirror-client-2"), "\(second)")
    }

    @Test(arguments: [
        (NginxFixture.Server.expired, "expired"),
        (.wrongHost, "no alternative certificate subject name matches"),
        (.selfSigned, "self"),
    ])
    func badServerCertificatesFailVerification(server: NginxFixture.Server, reason: String) throws {
        let nginx = try Self.nginx.get()
        let result = try curl(tlsOptions(nginx.pki, identity: client1) + [nginx.url(server, path: "/whoami")])
        #expect(result.exitCode == 60, "\(result)")
        #expect(result.stderr.contains(reason), "\(result)")
    }

    @Test func expiredBlockPresentsTheExpiredCertificate() throws {
        let nginx = try Self.nginx.get()
        let result = try curl(
            tlsOptions(nginx.pki, identity: client1) + ["--insecure", "--verbose", nginx.url(.expired, path: "/whoami")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("expire date: Jan  1 00:00:00 2021 GMT"))
        #expect(result.stdout.contains("CN=mirror-client-1"))
    }

    @Test func revokedBlockPassesWithoutACRLAndFailsWithOne() throws {
        let nginx = try Self.nginx.get()
        let url = nginx.url(.revoked, path: "/whoami")
        let withoutCRL = try curl(tlsOptions(nginx.pki, identity: client1) + [url])
        #expect(withoutCRL.exitCode == 0, "\(withoutCRL)")
        let withCRL = try curl(
            tlsOptions(nginx.pki, identity: client1) + ["--crlfile", nginx.pki.path("server-crl.pem"), url])
        #expect(withCRL.exitCode == 60, "\(withCRL)")
        #expect(withCRL.stderr.contains("revoked"), "\(withCRL)")
    }

    @Test func accessLogShowsRequestsStatusSubjectAndConnectionReuse() throws {
        let nginx = try Self.nginx.get()
        let tag = UUID().uuidString
        let first = nginx.url(.mtls, path: "/status/204?tag=\(tag)")
        let result = try curl(tlsOptions(nginx.pki, identity: client1) + [first, first])
        #expect(result.exitCode == 0, "\(result)")

        let settled = nginx.accessLogEntries(for: .mtls, atLeast: 2) { $0.target.contains(tag) }
        #expect(settled.count == 2, "\(nginx.accessLog())")
        #expect(settled.allSatisfy { $0.status == 204 && $0.method == "GET" })
        #expect(settled.allSatisfy { $0.clientSubject.contains("CN=mirror-client-1") })
        #expect(Set(settled.map(\.connection)).count == 1, "one keep-alive connection")
        #expect(settled.map(\.connectionRequests) == [1, 2])
        #expect(nginx.accessLogEntries(for: .plainTLS).allSatisfy { !$0.target.contains(tag) })
    }
}

@Suite struct NginxLifecycleTests {
    @Test func stopClosesThePortAndIsIdempotent() throws {
        let nginx = try NginxFixture(.mtls)
        let port = nginx.port(.mtls)
        #expect(FreePort.isAccepting(port))
        #expect(nginx.isRunning)
        nginx.stop()
        #expect(nginx.isRunning == false)
        #expect(FreePort.isAccepting(port) == false)
        nginx.stop()
        #expect(FreePort.isAccepting(port) == false)
    }

    @Test func releasingTheFixtureStopsNginxAndRemovesItsPrefix() throws {
        var nginx: NginxFixture? = try NginxFixture(.plainTLS)
        let port = try #require(nginx?.port(.plainTLS))
        let prefix = try #require(nginx?.prefix)
        #expect(FreePort.isAccepting(port))
        nginx = nil
        #expect(FreePort.isAccepting(port) == false)
        #expect(FileManager.default.fileExists(atPath: prefix.path) == false)
    }

    @Test func brokenConfigurationFailsFastWithNginxsComplaint() throws {
        let started = Date()
        let options = NginxFixture.Options(extraServerDirectives: "no_such_directive on;")
        let error = #expect(throws: NginxFixture.Failure.self) {
            try NginxFixture(.mtls, options: options)
        }
        guard case .exitedDuringStartup(_, _, let log) = error else {
            Issue.record("unexpected failure \(String(describing: error))")
            return
        }
        #expect(log.contains("unknown directive \"no_such_directive\""), "\(log)")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func configurationKeepsEveryPathInsideThePrefixOrPKI() throws {
        let configuration = NginxConfiguration(
            prefix: "/tmp/pfx", docroot: "/tmp/pfx/html", pkiDirectory: "/tmp/pki",
            blocks: NginxFixture.Server.allCases.enumerated().map { .init(server: $1, port: UInt16(20000 + $0)) },
            runAsRoot: false, options: .init())
        let text = configuration.render()
        let quotedPaths = text.split(separator: "\"").filter { $0.hasPrefix("/") }
        #expect(quotedPaths.count > 20)
        #expect(quotedPaths.allSatisfy { $0.hasPrefix("/tmp/pfx/") || $0.hasPrefix("/tmp/pki/") }, "\(quotedPaths)")
        #expect(text.contains("/var/") == false)
        #expect(text.contains("user root") == false)
        for path in ["client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path"] {
            #expect(text.contains("\(path) \"/tmp/pfx/temp/"), "\(path)")
        }
        #expect(text.components(separatedBy: "ssl_verify_client on;").count - 1 == 5)
    }

    @Test(arguments: ["../escape.html", "/etc/passwd", "", "a//b", "dir/../../x"])
    func siteRejectsPathsOutsideTheDocroot(path: String) throws {
        let scratch = try TemporaryDirectory()
        let site = NginxFixture.Site(root: scratch.url)
        #expect(throws: NginxFixture.Site.Failure.self) { try site.write(path, "x") }
    }
}

@Suite struct CommandRunnerTests {
    let shell = CommandRunner(executable: URL(fileURLWithPath: "/bin/sh"))

    @Test func capturesBothStreamsAndTheExitCode() {
        let result = shell.run(["-c", "echo out; echo err >&2; exit 3"])
        #expect(result == .init(exitCode: 3, stdout: "out\n", stderr: "err\n", timedOut: false))
        #expect(result.succeeded == false)
    }

    @Test func largeOutputOnBothStreamsDoesNotDeadlock() {
        let script = "head -c 3000000 /dev/zero | tr '\\0' a; head -c 3000000 /dev/zero | tr '\\0' b >&2"
        let result = shell.run(["-c", script], timeout: 30)
        #expect(result.timedOut == false)
        #expect(result.stdout.utf8.count == 3_000_000)
        #expect(result.stderr.utf8.count == 3_000_000)
    }

    @Test func feedsStandardInputAndEnvironment() {
        let result = shell.run(
            ["-c", "cat; printf '|%s' \"$HARNESS_VALUE\""], environment: ["HARNESS_VALUE": "v1"],
            stdin: Data("from stdin".utf8))
        #expect(result.stdout == "from stdin|v1", "\(result)")
    }

    @Test func killsAProgramAndItsChildrenPastTheTimeout() throws {
        let started = Date()
        let result = shell.run(["-c", "sleep 30 & echo $!; wait; echo late"], timeout: 0.5)
        #expect(result.timedOut)
        #expect(result.killedBySignal && result.exitCode == SIGTERM, "\(result)")
        #expect(result.stdout.contains("late") == false)
        #expect(Date().timeIntervalSince(started) < 3, "SIGTERM, not SIGKILL, ended it")

        let grandchild = try #require(Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        func isAlive() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(grandchild)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }
        let deadline = Date().addingTimeInterval(2)
        while isAlive() && Date() < deadline { usleep(20_000) }
        #expect(isAlive() == false, "the grandchild sleep was killed too")
    }

    @Test func reportsAMissingProgramAsExit127() {
        let missing = CommandRunner(executable: URL(fileURLWithPath: "/nonexistent/mtls-mirror-tool"))
        let result = missing.run([])
        #expect(result.exitCode == 127)
        #expect(result.stderr.contains("/nonexistent/mtls-mirror-tool"))
    }

    @Test func runDetachedGivesTheSameResult() async {
        let result = await shell.runDetached(["-c", "echo detached"])
        #expect(result.stdout == "detached\n")
        #expect(result.succeeded)
    }

    @Test func findsTheBuiltToolNextToTheTests() {
        let binary = CommandRunner.builtBinary(named: "mtls-mirror")
        #expect(binary.lastPathComponent == "mtls-mirror")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path)")
    }
}

@Suite struct ScratchAndPKITests {
    @Test func temporaryDirectoryIsRemovedByRemoveAndByRelease() throws {
        let explicit = try TemporaryDirectory()
        try Data("x".utf8).write(to: explicit.appending("f.txt"))
        explicit.remove()
        #expect(FileManager.default.fileExists(atPath: explicit.path) == false)

        var released: TemporaryDirectory? = try TemporaryDirectory()
        let path = try #require(released?.path)
        #expect(FileManager.default.fileExists(atPath: path))
        released = nil
        #expect(FileManager.default.fileExists(atPath: path) == false)
    }

    @Test func freePortsAreDistinctAndUnused() {
        let ports = (0..<20).map { _ in FreePort.allocate() }
        #expect(Set(ports).count == ports.count)
        #expect(ports.allSatisfy { $0 > 0 && !FreePort.isAccepting($0) })
    }

    @Test func sharedPKIIsGeneratedOnceWithItsPassword() throws {
        let first = try TestPKI.shared()
        let second = try TestPKI.shared()
        #expect(first.directory == second.directory)
        let stored = try String(contentsOfFile: first.path("password.txt"), encoding: .utf8)
        #expect(first.password.isEmpty == false)
        #expect(stored == first.password + "\n")
        for name in ["client.p12", "server-root.pem", "client-root.pem", "server-crl.pem"] {
            #expect(FileManager.default.fileExists(atPath: first.path(name)), "\(name)")
        }
    }

    @Test func freshPKIIsAPrivateCopyRemovedOnRelease() throws {
        let shared = try TestPKI.shared()
        var copy: TestPKI? = try shared.fresh()
        let directory = try #require(copy?.directory)
        #expect(directory != shared.directory)
        #expect(FileManager.default.contentsEqual(
            atPath: directory.appendingPathComponent("client.p12").path, andPath: shared.path("client.p12")))
        copy = nil
        #expect(FileManager.default.fileExists(atPath: directory.path) == false)
        #expect(FileManager.default.fileExists(atPath: shared.path("client.p12")))
    }
}
