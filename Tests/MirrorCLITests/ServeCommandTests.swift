import Foundation
import MirrorTestSupport
import Testing

/// `mtls-mirror serve` end to end: the built binary serves a mirror to curl and to a real
/// headless Chromium that holds no client certificate; `--live` fills gaps from an nginx that
/// requires one.
@Suite(.serialized) struct ServeCommandTests {
    static let fixture = Result { () throws -> (NginxFixture, SiteGenerator.Site) in
        let scratch = try TemporaryDirectory()
        let probe = try SiteGenerator.generate(into: scratch.url.appendingPathComponent("probe"), pages: 1)
        let origin = try NginxFixture(.mtls, options: .init(extraServerDirectives: probe.typesConfiguration))
        let site = try SiteGenerator.generate(into: origin.site.root, pages: 30, seed: 3)
        return (origin, site)
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    struct Served {
        let output: TemporaryDirectory
        let port: UInt16
        let process: Task<CommandRunner.Result, Never>
        var base: String { "http://127.0.0.1:\(port)" }
    }

    func tlsArguments(_ pki: TestPKI) -> [String] {
        ["--cacert", pki.path("server-root.pem"), "--cert", pki.path("client.p12"), "--pass-env", "SERVE_TEST_PASS"]
    }

    /// Mirrors the fixture (with `extra` crawl options), then starts `serve` on a free port.
    func mirrorAndServe(_ extra: [String] = [], serve serveExtra: [String] = [], lifetime: Int = 60) async throws -> Served {
        let (origin, _) = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let environment = ["SERVE_TEST_PASS": origin.pki.password, "NO_COLOR": "1"]
        let mirrored = runner.run(["mirror", origin.url(.mtls), "-o", output.path, "--name", "site"] + tlsArguments(origin.pki) + extra,
                                  environment: environment, timeout: 300)
        #expect(mirrored.exitCode == 0 || mirrored.exitCode == 10, "\(mirrored)")
        let port = FreePort.allocate()
        let runner = self.runner
        let process = Task.detached {
            runner.run(["serve", "-o", output.path, "--port", String(port), "--exit-after", String(lifetime)] + serveExtra,
                       environment: environment, timeout: TimeInterval(lifetime + 30))
        }
        for _ in 0..<100 where !FreePort.isAccepting(port) { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(FreePort.isAccepting(port), "serve did not start")
        return Served(output: output, port: port, process: process)
    }

    /// Stops `serve` with SIGTERM (graceful shutdown) and checks that it exits 0.
    func stop(_ served: Served) async {
        let pkill = CommandRunner.forTool(named: "pkill")
        _ = pkill?.run(["-TERM", "-f", "serve -o \(served.output.path) "], timeout: 10)
        let result = await served.process.value
        #expect(result.exitCode == 0, "\(result)")
        #expect(!result.timedOut)
    }

    func curl(_ url: String, _ extra: [String] = []) throws -> (status: Int, body: String) {
        let curl = try #require(CommandRunner.forTool(named: "curl"))
        let result = curl.run(["-s", "-S", "--path-as-is", "-o", "-", "-w", "\n%{http_code}"] + extra + [url], timeout: 30)
        var lines = result.stdout.components(separatedBy: "\n")
        let status = Int(lines.removeLast()) ?? 0
        return (status, lines.joined(separator: "\n"))
    }

    @Test func servesTheMirrorAndRefusesTraversal() async throws {
        let served = try await mirrorAndServe(["--depth", "1"])
        let index = try curl(served.base + "/")
        #expect(index.status == 200)
        #expect(index.body.contains("<html") || index.body.contains("<!doctype") || index.body.contains("<!DOCTYPE"))
        for attack in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd", "/_mirror/manifest.tsv", "/%00"] {
            let response = try curl(served.base + attack)
            #expect(response.status == 400 || response.status == 404, "\(attack) → \(response.status)")
            #expect(!response.body.contains("root:x:0:0"))
        }
        let missing = try curl(served.base + "/no/such/page.html")
        #expect(missing.status == 404)
        #expect(missing.body.contains("not in the mirror"))
        let head = try curl(served.base + "/", ["-I"])
        #expect(head.status == 200)
        // Without --live, a page beyond the depth is served as the placeholder that says so.
        let snapshot = served.output.url.appendingPathComponent("site/current").resolvingSymlinksInPath()
        let manifest = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        let reserved = manifest.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            .first { $0.count > 2 && $0[1].hasSuffix(".html") && $0[2].isEmpty }
        let reservedPath = String(try #require(reserved)[1].dropFirst())
        let placeholder = try curl(served.base + "/" + reservedPath)
        #expect(placeholder.status == 200, "\(reservedPath)")
        #expect(placeholder.body.contains("Not in this mirror"), "\(placeholder.body)")
        await stop(served)
    }

    @Test func liveModeFetchesMissingPagesOverMTLS() async throws {
        let (origin, _) = try Self.fixture.get()
        let served = try await mirrorAndServe(["--depth", "0"], serve: ["--live"] + tlsArguments(origin.pki))
        let snapshot = served.output.url.appendingPathComponent("site/current").resolvingSymlinksInPath()
        // /about is beyond depth 0: reserved in the manifest, a placeholder on disk.
        let manifest = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        let aboutLine = try #require(manifest.split(separator: "\n").first { $0.hasPrefix(origin.url(.mtls, path: "/about") + "\t") })
        let aboutPath = String(aboutLine.split(separator: "\t")[1].dropFirst())
        let placeholder = try String(contentsOf: snapshot.appendingPathComponent(aboutPath), encoding: .utf8)
        #expect(placeholder.contains("Not in this mirror"), "\(placeholder)")
        // The other pages beyond the depth share the placeholder's file (hard links).
        var otherPlaceholders: [String] = []
        for line in manifest.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 2, fields[1].hasSuffix(".html"), fields[2].isEmpty else { continue }
            let path = String(fields[1].dropFirst())
            if path != aboutPath { otherPlaceholders.append(path) }
        }
        #expect(!otherPlaceholders.isEmpty)
        let before = origin.accessLogEntries(for: .mtls).count

        // Three browsers ask at once: one live fetch, three answers.
        async let a = Task.detached { try curl(served.base + "/" + aboutPath) }.value
        async let b = Task.detached { try curl(served.base + "/" + aboutPath) }.value
        async let c = Task.detached { try curl(served.base + "/" + aboutPath) }.value
        let answers = try await [a, b, c]
        #expect(answers.allSatisfy { $0.status == 200 && $0.body.contains("About") }, "\(answers.map(\.status))")
        #expect(FileManager.default.fileExists(atPath: snapshot.appendingPathComponent(aboutPath).path))
        let fetched = origin.accessLogEntries(for: .mtls, atLeast: before + 1).dropFirst(before).filter { $0.target == "/about" }
        #expect(fetched.count == 1, "\(fetched)")
        #expect(fetched.first?.clientSubject.contains("mirror-client-1") == true)

        // The page was rewritten like a crawl: no link to the origin. It replaced the placeholder.
        let stored = try String(contentsOf: snapshot.appendingPathComponent(aboutPath), encoding: .utf8)
        #expect(!stored.contains(origin.url(.mtls, path: "/about")))
        #expect(!stored.contains("Not in this mirror"))
        // Replaced by a rename, not written in place: the placeholders linked to it are intact.
        for other in otherPlaceholders {
            let text = try String(contentsOf: snapshot.appendingPathComponent(other), encoding: .utf8)
            #expect(text == placeholder, "\(other)")
        }
        let updated = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        #expect(updated.contains(origin.url(.mtls, path: "/about") + "\t=" + aboutPath + "\t200"))

        // An origin path (not a file path) redirects to the stored file.
        let redirect = try curl(served.base + "/about")
        #expect(redirect.status == 302)
        await stop(served)
    }

    @Test func liveModeReportsOriginFailures() async throws {
        let (origin, _) = try Self.fixture.get()
        let served = try await mirrorAndServe(["--depth", "0"], serve: ["--live"] + tlsArguments(origin.pki))
        let gone = try curl(served.base + "/definitely-not-on-the-origin.html")
        #expect(gone.status == 502)
        #expect(gone.body.contains("HTTP 404"))
        await stop(served)
    }

    /// Statuses of the serve access log lines ("… \"GET /x HTTP/1.1\" 200 123").
    static func accessStatuses(_ stderr: String) -> [(target: String, status: Int)] {
        stderr.split(separator: "\n").compactMap { line in
            guard let quote = line.range(of: "\"GET "), let end = line.range(of: " HTTP/", range: quote.upperBound..<line.endIndex) else { return nil }
            let rest = line[end.upperBound...].split(separator: " ")
            guard rest.count >= 2, let status = Int(rest[1]) else { return nil }
            return (String(line[quote.upperBound..<end.lowerBound]), status)
        }
    }

    @Test func aBrowserWithoutCertificateLoadsEverythingFromTheServer() async throws {
        let (origin, site) = try Self.fixture.get()
        let browser = try HeadlessBrowser()
        let served = try await mirrorAndServe()
        let snapshot = served.output.url.appendingPathComponent("site/current")
        #expect(FileManager.default.fileExists(atPath: snapshot.appendingPathComponent("kitchen/index.html").path))
        let visit = try browser.visit(served.base + "/kitchen/index.html")
        let pages = try browser.visit(served.base + "/")
        await stopAndCheck(served) { log in
            let statuses = Self.accessStatuses(log)
            #expect(statuses.count >= 30, "\(statuses.count) requests")
            let failed = statuses.filter { ![200, 206, 304].contains($0.status) }
            #expect(failed.isEmpty, "failed requests: \(failed)")
        }
        #expect(visit.dom.contains("<title>Every reference kind</title>"), "\(visit.dom.prefix(300))")
        #expect(!pages.dom.isEmpty)
        let all = visit.requestedURLs + pages.requestedURLs
        let originHost = "localhost:\(origin.port(.mtls))"
        let toOrigin = all.filter { $0.contains(originHost) || $0.contains("127.0.0.1:\(origin.port(.mtls))") }
        #expect(toOrigin.isEmpty, "the browser reached for the origin: \(toOrigin)")
        #expect(all.filter { $0.hasPrefix(served.base) }.count >= 30)
        _ = site
    }

    @Test func aBrowserGetsMissingPagesThroughLiveMode() async throws {
        let (origin, _) = try Self.fixture.get()
        let browser = try HeadlessBrowser()
        let served = try await mirrorAndServe(["--depth", "0"], serve: ["--live"] + tlsArguments(origin.pki))
        let snapshot = served.output.url.appendingPathComponent("site/current").resolvingSymlinksInPath()
        let kitchen = snapshot.appendingPathComponent("kitchen/index.html")
        #expect(try String(contentsOf: kitchen, encoding: .utf8).contains("Not in this mirror"), "beyond the depth: a placeholder")
        let visit = try browser.visit(served.base + "/kitchen/index.html")
        await stopAndCheck(served) { log in
            let statuses = Self.accessStatuses(log)
            let failed = statuses.filter { ![200, 206, 302, 304].contains($0.status) && !$0.target.hasSuffix("favicon.ico") }
            #expect(statuses.count >= 20, "\(statuses.count) requests")
            #expect(failed.isEmpty, "failed requests: \(failed)")
        }
        #expect(visit.dom.contains("<title>Every reference kind</title>"), "\(visit.dom.prefix(300))")
        #expect(try String(contentsOf: kitchen, encoding: .utf8).contains("<title>Every reference kind</title>"), "fetched live")
        let toOrigin = visit.requestedURLs.filter { $0.contains(":\(origin.port(.mtls))") }
        #expect(toOrigin.isEmpty, "the browser reached for the origin: \(toOrigin)")
        // The origin saw the mirror's client certificate on every live fetch.
        let entries = origin.accessLogEntries(for: .mtls).filter { $0.target.hasPrefix("/kitchen/") }
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.clientSubject.contains("mirror-client-1") })
    }

    /// Stops `serve` and hands its standard error (the access log) to `check`.
    func stopAndCheck(_ served: Served, _ check: (String) -> Void) async {
        let pkill = CommandRunner.forTool(named: "pkill")
        _ = pkill?.run(["-TERM", "-f", "serve -o \(served.output.path) "], timeout: 10)
        let result = await served.process.value
        #expect(result.exitCode == 0, "\(result)")
        check(result.stderr)
    }

    @Test func liveModeServesAStaleCopyWithANoticeWhenTheOriginFails() async throws {
        let origin = try NginxFixture(.mtls)
        try origin.site.write("index.html", "<!doctype html><html><body><h1>home</h1><a href=news.html>news</a></body></html>")
        try origin.site.write("news.html", "<!doctype html><html><body><p>news of the day</p></body></html>")
        let output = try TemporaryDirectory()
        let environment = ["SERVE_TEST_PASS": origin.pki.password, "NO_COLOR": "1"]
        let mirrored = runner.run(["mirror", origin.url(.mtls), "-o", output.path, "--name", "site"] + tlsArguments(origin.pki),
                                  environment: environment, timeout: 120)
        #expect(mirrored.exitCode == 0, "\(mirrored)")
        let port = FreePort.allocate()
        let runner = self.runner
        let process = Task.detached {
            runner.run(["serve", "-o", output.path, "--port", String(port), "--live", "--max-age", "1s", "--exit-after", "60"]
                       + ["--cacert", origin.pki.path("server-root.pem"), "--cert", origin.pki.path("client.p12"), "--pass-env", "SERVE_TEST_PASS"],
                       environment: environment, timeout: 90)
        }
        let served = Served(output: output, port: port, process: process)
        for _ in 0..<100 where !FreePort.isAccepting(port) { try await Task.sleep(nanoseconds: 50_000_000) }
        // Older than --max-age and the origin still has it: fetched again, served fresh.
        try await Task.sleep(nanoseconds: 1_200_000_000)
        try origin.site.write("news.html", "<!doctype html><html><body><p>news, second edition</p></body></html>")
        let fresh = try curl(served.base + "/news.html")
        #expect(fresh.status == 200)
        #expect(fresh.body.contains("second edition"), "\(fresh.body)")
        // Older than --max-age and the origin fails: the stored copy, with a visible notice.
        try await Task.sleep(nanoseconds: 1_200_000_000)
        try origin.site.remove("news.html")
        let stale = try curl(served.base + "/news.html")
        #expect(stale.status == 200)
        #expect(stale.body.contains("second edition"))
        #expect(stale.body.contains("the origin could not be reached"), "\(stale.body)")
        await stop(served)
    }

    @Test func remoteBindNeedsAllowRemote() throws {
        let output = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: output.url.appendingPathComponent("x/snapshots/1"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: output.url.appendingPathComponent("x/current").path, withDestinationPath: "snapshots/1")
        let result = runner.run(["serve", "-o", output.path, "--bind", "0.0.0.0", "--port", "0", "--exit-after", "1"], environment: ["NO_COLOR": "1"], timeout: 30)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains("allow-remote") || result.stderr.contains("loopback"), "\(result.stderr)")
    }
}
