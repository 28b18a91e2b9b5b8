import Foundation
import MirrorTestSupport
import Testing

/// Render mode at its edges, with the built binary: no browser, a page that never goes idle,
/// a page reaching for other hosts, scripts kept and replayed by `serve`, live rendering, and
/// the `render` key of config.json.
@Suite(.serialized) struct RenderModeEdgeTests {
    static let fixture = Result { () throws -> (NginxFixture, AppSiteGenerator.Site, ConnectionListener) in
        let scratch = try TemporaryDirectory()
        let probe = try AppSiteGenerator.generate(into: scratch.url.appendingPathComponent("probe"), pages: 1)
        let origin = try NginxFixture(.mtls, .plainTLS, options: .init(extraServerDirectives: probe.serverDirectives))
        let site = try AppSiteGenerator.generate(into: origin.site.root, pages: 6, seed: 9)
        let listener = try ConnectionListener()
        let target = "127.0.0.1:\(listener.port)"
        // A page whose counter never stops fetching.
        try origin.site.write("ticker.html", """
            <!DOCTYPE html><html><head><title>Ticker</title></head><body><p id="count">0</p>
            <script>let n = 0; setInterval(() => fetch('/api/menu.json').then(() => { document.getElementById('count').textContent = 'tick ' + (++n); }), 50);</script>
            </body></html>
            """)
        // A page that reaches for another host every way it can.
        try origin.site.write("hostile.html", """
            <!DOCTYPE html><html><head><title>Hostile</title><link rel="preconnect" href="http://\(target)">
            <link rel="dns-prefetch" href="//\(target)"></head><body><h1>Still rendered</h1>
            <img src="http://\(target)/pixel.png"><img src="https://tracker.example/pixel.png">
            <script>fetch('http://\(target)/fetch').catch(() => 0); navigator.sendBeacon('/beacon', 'x');
            try { new WebSocket('ws://\(target)/socket'); } catch (e) {}
            fetch('/api/menu.json', { method: 'DELETE' }).catch(() => 0);
            fetch('/private/data.json').catch(() => 0);
            fetch('/redirect?to=https://tracker.example/follow').catch(() => 0);</script></body></html>
            """)
        try origin.site.write("robots.txt", "User-agent: *\nDisallow: /private/\n")
        try origin.site.write("private/data.json", "{}")
        // A page whose image is on a requisite host (a CDN): fetched for the browser, without the identity.
        try origin.site.write("cdn.html", """
            <!DOCTYPE html><html><head><title>CDN</title></head><body><p id="state">shell</p>
            <script>const image = document.createElement('img'); image.src = 'https://127.0.0.1:\(origin.port(.plainTLS))/img/2.svg';
            document.body.append(image); document.getElementById('state').textContent = 'image added';</script></body></html>
            """)
        return (origin, site, listener)
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    func mirror(_ path: String, _ extra: [String], into output: TemporaryDirectory, environment: [String: String] = [:])
        throws -> CommandRunner.Result
    {
        let (origin, _, _) = try Self.fixture.get()
        return runner.run(["mirror", origin.url(.mtls, path: path), "-o", output.path, "--name", "app"] + extra
                          + RenderModeTests.tlsArguments(origin.pki),
                          environment: RenderModeTests.environment(origin.pki, environment), timeout: 300)
    }

    @Test func withoutChromiumTheRunStopsWithExitCode12AndNamesThePackage() throws {
        let (origin, _, _) = try Self.fixture.get()
        let requests = origin.accessLogEntries(for: .mtls).count
        let output = try TemporaryDirectory()
        let result = try mirror("/", ["--render"], into: output, environment: ["MTLS_MIRROR_CHROMIUM": "/nonexistent/chromium"])
        #expect(result.exitCode == 12, "\(result)")
        #expect(result.stderr.contains("render mode needs Chromium, and there is no browser at /nonexistent/chromium"), "\(result.stderr)")
        #expect(result.stderr.contains("try: install the Debian package chromium"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.url.appendingPathComponent("app/current").path), "nothing published")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(origin.accessLogEntries(for: .mtls).count == requests, "nothing was fetched")
    }

    @Test func aPageThatNeverGoesIdleIsKeptAsRenderedWhenItsTimeIsUp() throws {
        let output = try TemporaryDirectory()
        let started = Date()
        let result = try mirror("/ticker.html", ["--render-timeout", "2", "--render-timers", "0"], into: output)
        #expect(result.exitCode == 0, "\(result)")
        #expect(Date().timeIntervalSince(started) < 30)
        let snapshot = output.url.appendingPathComponent("app/current")
        let html = try String(contentsOf: snapshot.appendingPathComponent("ticker.html"), encoding: .utf8)
        #expect(html.contains(#"<p id="count">tick "#), "\(html)")
        let render = try #require(try RenderModeTests.report(snapshot)["render"] as? [String: Any])
        let cut = render["budgetCut"] as? [[String: Any]] ?? []
        #expect(cut.count == 1 && cut.first?["limit"] as? String == "time", "\(render)")
    }

    @Test func aPageReachingForOtherHostsReachesNoneAndTheReportListsThem() throws {
        let (_, _, listener) = try Self.fixture.get()
        let before = listener.total
        let output = try TemporaryDirectory()
        let result = try mirror("/hostile.html", ["--render"], into: output)
        #expect(result.exitCode == 0, "\(result)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(listener.total == before, "the browser reached the listener: \(listener.tcpConnections)")
        let snapshot = output.url.appendingPathComponent("app/current")
        #expect(try String(contentsOf: snapshot.appendingPathComponent("hostile.html"), encoding: .utf8).contains("<h1>Still rendered</h1>"))
        let render = try #require(try RenderModeTests.report(snapshot)["render"] as? [String: Any])
        let refused = (render["refused"] as? [[String: Any]] ?? []).compactMap { entry -> String? in
            guard let url = entry["url"] as? String, let reason = entry["reason"] as? String else { return nil }
            return "\(url) \(reason)"
        }
        // A redirect is handed to the browser, and its target decided again: out of scope.
        let expected = ["127.0.0.1:\(listener.port)/pixel.png", "127.0.0.1:\(listener.port)/fetch", "tracker.example/pixel.png",
                        "/beacon", "DELETE", "/private/data.json disallowed by robots.txt", "https://tracker.example/follow out of scope"]
        for part in expected { #expect(refused.contains { $0.contains(part) }, "\(part) not listed as refused: \(refused)") }
    }

    @Test func aRequisiteHostGetsTheBrowsersRequestsWithoutTheIdentity() throws {
        let (origin, _, _) = try Self.fixture.get()
        let subjectsBefore = origin.loggedClientSubjects().count
        let output = try TemporaryDirectory()
        let result = try mirror("/cdn.html", ["--render", "--requisite-hosts", "127.0.0.1"], into: output)
        #expect(result.exitCode == 0, "\(result)")
        let snapshot = output.url.appendingPathComponent("app/current")
        #expect(try String(contentsOf: snapshot.appendingPathComponent("cdn.html"), encoding: .utf8).contains("image added"))
        let stored = snapshot.appendingPathComponent("_hosts/127.0.0.1@https-\(origin.port(.plainTLS))/img/2.svg")
        #expect(FileManager.default.fileExists(atPath: stored.path), "the CDN image is stored")
        let subjects = Array(origin.loggedClientSubjects(atLeast: subjectsBefore + 1).dropFirst(subjectsBefore))
        #expect(!subjects.isEmpty && subjects.allSatisfy(\.isEmpty), "the requisite host saw a client certificate: \(subjects)")
        let page = origin.accessLogEntries(for: .mtls).filter { $0.target == "/cdn.html" }
        #expect(!page.isEmpty && page.allSatisfy { $0.clientSubject.contains("mirror-client-1") })
    }

    @Test func withScriptsKeptServeReplaysTheApplicationOffline() async throws {
        let (origin, site, _) = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = try mirror("/", ["--render-keep-scripts"], into: output)
        #expect(result.exitCode == 0, "\(result)")
        let snapshot = output.url.appendingPathComponent("app/current")
        let stored = try String(contentsOf: snapshot.appendingPathComponent("pages/3.html"), encoding: .utf8)
        #expect(stored.contains("Loading…") && !stored.contains("text/x-mtls-mirror-neutralised"), "the page with its scripts")
        let served = try await Served.start(runner, output: output, environment: RenderModeTests.environment(origin.pki))
        let browser = try HeadlessBrowser()
        let visit = try browser.visit(served.base + "/pages/3.html")
        let log = await served.stop()
        // The scripts ran again: their JSON and the POST's answer came from the recordings.
        #expect(visit.dom.contains(site.expected.tokens["/pages/3.html"] ?? "?"), "\(visit.dom.prefix(600))")
        #expect(visit.dom.contains("Search: search-hit"), "the POST was answered")
        let statuses = Served.accessStatuses(log)
        #expect(statuses.contains { $0.target == "POST /api/search" && $0.status == 200 }, "\(statuses)")
        #expect(statuses.filter { ![200, 304].contains($0.status) && !$0.target.hasSuffix("favicon.ico") }.isEmpty, "\(statuses)")
        #expect(visit.pageRequestedURLs.filter { !$0.hasPrefix(served.base + "/") }.isEmpty, "\(visit.pageRequestedURLs)")
    }

    @Test func serveLiveRendersAMissingPageOfARenderedSite() async throws {
        let (origin, site, _) = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = try mirror("/", ["--render", "--depth", "0"], into: output)
        #expect(result.exitCode == 0, "\(result)")
        let page = output.url.appendingPathComponent("app/current/pages/2.html")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Not in this mirror"), "beyond the depth: a placeholder")
        let served = try await Served.start(runner, output: output, extra: ["--live"] + RenderModeTests.tlsArguments(origin.pki),
                                            environment: RenderModeTests.environment(origin.pki))
        let browser = try HeadlessBrowser()
        let visit = try browser.visit(served.base + "/pages/2.html")
        let log = await served.stop()
        #expect(visit.dom.contains(site.expected.tokens["/pages/2.html"] ?? "?"), "\(visit.dom.prefix(600))\n\(log.suffix(800))")
        #expect(log.contains("live: rendered"), "\(log.suffix(800))")
        let stored = try String(contentsOf: output.url.appendingPathComponent("app/current/pages/2.html").resolvingSymlinksInPath(),
                                encoding: .utf8)
        #expect(stored.contains(site.expected.tokens["/pages/2.html"] ?? "?") && stored.contains("script-src 'none'"))
    }

    @Test func theConfigRenderKeyRendersOnlyTheIncludedPages() throws {
        let (origin, site, _) = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let config = """
            {"output": "\(output.path)", "sites": [{"name": "app", "start": ["\(origin.url(.mtls))"],
              "identity": {"cert": "\(origin.pki.path("client.p12"))", "password": {"env": "RENDER_TEST_PASS"}},
              "trust": {"default": {"type": "default", "cacert": ["\(origin.pki.path("server-root.pem"))"]}},
              "render": {"include": ["regex:^/$", "/pages/"], "exclude": ["regex:^/pages/[3-9]"], "jobs": 2, "timeout": "10s", "quiet": "200ms"}}]}
            """
        let file = output.url.appendingPathComponent("config.json")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let result = runner.run(["mirror", "--config", file.path], environment: RenderModeTests.environment(origin.pki), timeout: 300)
        #expect(result.exitCode == 0, "\(result)")
        let snapshot = output.url.appendingPathComponent("app/current")
        let render = try #require(try RenderModeTests.report(snapshot)["render"] as? [String: Any])
        #expect(render["rendered"] as? Int == 3, "/, pages 1 and 2 only: \(render)")
        // Page 3 is excluded: stored as fetched, the empty shell (and the pages only its script
        // links to are not reached).
        for (path, rendered) in [("/", true), ("/pages/1.html", true), ("/pages/2.html", true), ("/pages/3.html", false)] {
            let html = try String(contentsOf: RenderModeTests.file(snapshot, page: path), encoding: .utf8)
            #expect(html.contains(site.expected.tokens[path] ?? "?") == rendered, "\(path)")
            #expect(html.contains("Loading…") == !rendered, "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: snapshot.appendingPathComponent("pages/6.html").path))
    }

    @Test func theViewersRequestListSeesWhatAPageAsksOtherHostsFor() throws {
        // The control of the "no request to another host" checks: a page that does ask is seen.
        let scratch = try TemporaryDirectory()
        let file = scratch.url.appendingPathComponent("external.html")
        try #"<img src="http://other.invalid/x.png"><script>fetch("https://other2.invalid/y")</script>"#
            .write(to: file, atomically: true, encoding: .utf8)
        let visit = try HeadlessBrowser().visit(file.absoluteString, budgetMilliseconds: 1500)
        #expect(Set(visit.pageRequestedURLs).isSuperset(of: ["http://other.invalid/x.png", "https://other2.invalid/y"]), "\(visit.pageRequestedURLs)")
    }
}

extension RenderModeEdgeTests {
    @Test(arguments: [("-1", "--render-timers needs a number of 0 or more, not \"-1\""),
                      ("7200", "--render-timers must be 0 to 3600 seconds"),
                      ("soon", "--render-timers needs a number of 0 or more, not \"soon\"")])
    func aBadPageTimeIsAUsageError(value: String, message: String) throws {
        let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))
        let output = try TemporaryDirectory()
        let result = runner.run(["mirror", "https://app.test/", "-o", output.path, "--render-timers", value],
                                environment: ["NO_COLOR": "1"], timeout: 60)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
