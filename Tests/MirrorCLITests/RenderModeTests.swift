import Foundation
import MirrorTestSupport
import Testing

/// `mirror --render` end to end: the built binary mirrors an application whose content,
/// navigation and images exist only after scripts fetched JSON, from a real nginx that
/// requires client certificates, through a real headless Chromium; then a headless Chromium
/// without any certificate reads the copy through `serve` and from disk.
@Suite(.serialized) struct RenderModeTests {
    static let pages = 12
    static let fixture = Result { () throws -> (NginxFixture, AppSiteGenerator.Site) in
        let scratch = try TemporaryDirectory()
        let probe = try AppSiteGenerator.generate(into: scratch.url.appendingPathComponent("probe"), pages: 1)
        let origin = try NginxFixture(.mtls, options: .init(extraServerDirectives: probe.serverDirectives))
        let site = try AppSiteGenerator.generate(into: origin.site.root, pages: pages, seed: 5)
        return (origin, site)
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    static func tlsArguments(_ pki: TestPKI) -> [String] {
        ["--cacert", pki.path("server-root.pem"), "--cert", pki.path("client.p12"), "--pass-env", "RENDER_TEST_PASS"]
    }

    static func environment(_ pki: TestPKI, _ extra: [String: String] = [:]) -> [String: String] {
        ["RENDER_TEST_PASS": pki.password, "NO_COLOR": "1"].merging(extra) { _, new in new }
    }

    static func file(_ snapshot: URL, page: String) -> URL {
        snapshot.appendingPathComponent(page == "/" ? "index.html" : String(page.dropFirst()))
    }

    static func report(_ snapshot: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: snapshot.appendingPathComponent("_mirror/report.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Every file of the browser's profile folders under `parent`, searched for `needles` while
    /// the mirror runs (the folder is removed at its end). Returns the folders seen and the hits.
    static func watchProfiles(under parent: String, for needles: [[UInt8]], until done: @escaping @Sendable () -> Bool)
        -> Task<(folders: Set<String>, files: Int, hits: [String]), Never>
    {
        Task.detached {
            var folders = Set<String>()
            var files = 0
            var hits: [String] = []
            while !done() {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
                for name in names where name.hasPrefix("mtls-mirror-browser-") {
                    folders.insert(name)
                    let root = parent + "/" + name
                    let walker = FileManager.default.enumerator(atPath: root)
                    while let relative = walker?.nextObject() as? String {
                        guard let data = FileManager.default.contents(atPath: root + "/" + relative) else { continue }
                        files += 1
                        let bytes = [UInt8](data)
                        for needle in needles where bytes.firstRange(of: needle) != nil { hits.append(relative) }
                    }
                }
                try? await Task.sleep(nanoseconds: 100_000_000)
            }
            return (folders, files, hits)
        }
    }

    @Test func mirrorsTheRenderedApplicationOverMTLSAndTheCopyWorksOffline() async throws {
        let (origin, site) = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let profiles = try ShortTemporaryDirectory()
        let logStart = origin.accessLogEntries(for: .mtls).count
        // The key's bytes, as PEM and as DER, and the PKCS#12 password: none may reach the profile.
        let pem = try String(contentsOfFile: origin.pki.path("client.key"), encoding: .utf8)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body))
        let needles = [Array(der.prefix(64)), Array(der.suffix(64)), Array(body.prefix(48).utf8), Array(origin.pki.password.utf8)]
        let finished = Flag()
        let watcher = Self.watchProfiles(under: profiles.path, for: needles) { finished.isSet }
        let result = runner.run(["mirror", origin.url(.mtls), "-o", output.path, "--name", "app", "--render"] + Self.tlsArguments(origin.pki),
                                environment: Self.environment(origin.pki, ["TMPDIR": profiles.path]), timeout: 300)
        finished.set()
        let watched = await watcher.value
        #expect(result.exitCode == 0, "\(result)")
        #expect(!watched.folders.isEmpty && watched.files > 10, "the browser's profile was never seen: \(watched)")
        #expect(watched.hits.isEmpty, "key material in the browser profile: \(watched.hits)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: profiles.path).isEmpty, "the profile is removed after the run")

        // Every page, reached only through script-built links, holds its rendered text.
        let snapshot = output.url.appendingPathComponent("app/current").resolvingSymlinksInPath()
        for page in site.expected.pages {
            let html = (try? String(contentsOf: Self.file(snapshot, page: page), encoding: .utf8)) ?? ""
            #expect(html.contains(site.expected.texts[page] ?? "?"), "\(page) lacks its rendered text")
            #expect(!html.contains("Loading…"), "\(page) is still the empty shell")
            #expect(html.contains("Built by a module script"), "\(page): the module script's footer")
            #expect(html.contains("script-src 'none'") && html.contains("text/x-mtls-mirror-neutralised"), "\(page): scripts neutralised")
        }
        for path in ["api/menu.json", "api/pages/7.json", "img/7.svg", "img/lazy-7.svg", "img/bg.svg", "static/app.js",
                     "static/boot.mjs", "static/lib.mjs", "static/app.woff2"] {
            #expect(FileManager.default.fileExists(atPath: snapshot.appendingPathComponent(path).path), "\(path) was loaded by a page")
        }
        let manifest = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        #expect(manifest.contains("/api/pages/7.json\t=api/pages/7.json\t200\t=application/json"))
        // The frame the home page's script added is stored as its own script built it.
        let widget = (try? String(contentsOf: snapshot.appendingPathComponent("widget.html"), encoding: .utf8)) ?? ""
        #expect(widget.contains("Widget built by its own script") && widget.contains("script-src 'none'"), "\(widget)")
        // The module the page imported is known only to the browser: it is among the page's references.
        let homeRow = manifest.split(separator: "\n").first { $0.hasPrefix(origin.url(.mtls) + "\t") }.map(String.init) ?? ""
        #expect(homeRow.contains("+" + origin.url(.mtls, path: "/static/lib.mjs")), "\(homeRow)")
        let report = try Self.report(snapshot)
        let render = try #require(report["render"] as? [String: Any])
        #expect(render["rendered"] as? Int == site.expected.pages.count, "\(render)")
        #expect(render["isolation"] as? String == "private network, sandboxed")
        // Every request, the browser's included (only the browser sends the search POST), carried the certificate.
        let entries = Array(origin.accessLogEntries(for: .mtls).dropFirst(logStart))
        #expect(entries.filter { $0.method == "POST" }.count == site.expected.pages.count, "\(entries.map(\.request))")
        #expect(!entries.isEmpty && entries.allSatisfy { $0.clientSubject.contains("mirror-client-1") },
                "\(entries.filter { !$0.clientSubject.contains("mirror-client-1") })")
        #expect(MirrorVerifier.verify(snapshotRoot: snapshot, originPrefixes: [origin.url(.mtls)]).isClean)

        // From disk: a browser sees the text and asks no host for anything.
        let browser = try HeadlessBrowser()
        let fromDisk = try browser.visit(snapshot.appendingPathComponent("pages/5.html").absoluteString)
        #expect(fromDisk.dom.contains(site.expected.tokens["/pages/5.html"] ?? "?"), "\(fromDisk.dom.prefix(400))")
        let remote = fromDisk.pageRequestedURLs.filter { !$0.hasPrefix("file:") }
        #expect(remote.isEmpty, "requests from the copy on disk: \(remote)")

        // Through serve: the text, every request answered, none to another host.
        let served = try await Served.start(runner, output: output, environment: Self.environment(origin.pki))
        let visit = try browser.visit(served.base + "/pages/6.html")
        let home = try browser.visit(served.base + "/")
        let log = await served.stop()
        #expect(visit.dom.contains(site.expected.tokens["/pages/6.html"] ?? "?"), "\(visit.dom.prefix(400))")
        #expect(home.dom.contains(site.expected.tokens["/"] ?? "?"))
        let statuses = Served.accessStatuses(log)
        #expect(statuses.count >= 6, "\(statuses)")
        #expect(statuses.filter { ![200, 304].contains($0.status) && !$0.target.hasSuffix("favicon.ico") }.isEmpty, "\(statuses)")
        #expect(visit.pageRequestedURLs.count >= 5, "\(visit.pageRequestedURLs)")
        let elsewhere = (visit.pageRequestedURLs + home.pageRequestedURLs).filter { !$0.hasPrefix(served.base + "/") }
        #expect(elsewhere.isEmpty, "requests to other hosts: \(elsewhere)")
    }

    @Test func aRefreshKeepsUnchangedPagesAndRendersAChangedOneAgain() async throws {
        let (origin, site) = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let arguments = ["mirror", origin.url(.mtls), "-o", output.path, "--name", "app", "--render"] + Self.tlsArguments(origin.pki)
        let first = runner.run(arguments, environment: Self.environment(origin.pki), timeout: 300)
        #expect(first.exitCode == 0, "\(first)")
        let second = runner.run(arguments, environment: Self.environment(origin.pki), timeout: 300)
        #expect(second.exitCode == 0, "\(second)")
        let snapshot = { output.url.appendingPathComponent("app/current").resolvingSymlinksInPath() }
        var render = try #require(try Self.report(snapshot())["render"] as? [String: Any])
        #expect(render["rendered"] as? Int == 0 && render["unchanged"] as? Int == site.expected.pages.count, "\(render)")
        // A page's data changes: that page, and only that one, is rendered again.
        let file = origin.site.root.appendingPathComponent("api/pages/9.json")
        let original = try String(contentsOf: file, encoding: .utf8)
        defer { try? original.write(to: file, atomically: true, encoding: .utf8) }
        try original.replacingOccurrences(of: "Rendered text of page 9", with: "Changed text of page 9").write(to: file, atomically: true, encoding: .utf8)
        let third = runner.run(arguments, environment: Self.environment(origin.pki), timeout: 300)
        #expect(third.exitCode == 0, "\(third)")
        render = try #require(try Self.report(snapshot())["render"] as? [String: Any])
        #expect(render["rendered"] as? Int == 1 && render["unchanged"] as? Int == site.expected.pages.count - 1, "\(render)")
        #expect(try String(contentsOf: snapshot().appendingPathComponent("pages/9.html"), encoding: .utf8).contains("Changed text of page 9"))
        #expect(try String(contentsOf: snapshot().appendingPathComponent("pages/8.html"), encoding: .utf8)
            .contains(site.expected.tokens["/pages/8.html"] ?? "?"))
    }
}

/// `mtls-mirror serve` on a free port, for the duration of a test.
struct Served {
    let port: UInt16
    let output: TemporaryDirectory
    let process: Task<CommandRunner.Result, Never>
    var base: String { "http://127.0.0.1:\(port)" }

    static func start(_ runner: CommandRunner, output: TemporaryDirectory, extra: [String] = [], environment: [String: String])
        async throws -> Served
    {
        let port = FreePort.allocate()
        let process = Task.detached {
            runner.run(["serve", "-o", output.path, "--port", String(port), "--exit-after", "60"] + extra,
                       environment: environment, timeout: 90)
        }
        for _ in 0..<100 where !FreePort.isAccepting(port) { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(FreePort.isAccepting(port), "serve did not start")
        return Served(port: port, output: output, process: process)
    }

    /// Stops `serve` (SIGTERM) and returns its standard error (the access log).
    func stop() async -> String {
        _ = CommandRunner.forTool(named: "pkill")?.run(["-TERM", "-f", "serve -o \(output.path) "], timeout: 10)
        let result = await process.value
        #expect(result.exitCode == 0, "\(result)")
        return result.stderr
    }

    /// `(method target, status)` of every request in a Common Log Format log.
    static func accessStatuses(_ log: String) -> [(target: String, status: Int)] {
        log.split(separator: "\n").compactMap { line in
            guard let quote = line.firstIndex(of: "\""), let end = line.range(of: " HTTP/", range: quote..<line.endIndex) else { return nil }
            let rest = line[end.upperBound...].split(separator: " ")
            guard rest.count >= 2, let status = Int(rest[1]) else { return nil }
            return (String(line[line.index(after: quote)..<end.lowerBound]), status)
        }
    }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
