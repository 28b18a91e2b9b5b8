import Foundation
import MirrorTestSupport
import Testing

/// `--sitemaps` end to end: pages that no page links to, listed only in a gzip sitemap that a
/// sitemap index (named by robots.txt) points to, are mirrored; the scope still decides.
@Suite(.serialized) struct SitemapMirrorTests {
    struct Fixture: Sendable {
        let nginx: NginxFixture
    }

    static let fixture = Result { () throws -> Fixture in
        let nginx = try NginxFixture(.mtls)
        let origin = nginx.url(.mtls, path: "").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        try nginx.site.write("index.html", "<h1>home</h1><p>links to nothing</p>")
        try nginx.site.write("robots.txt", "User-agent: *\nDisallow: /private/\nSitemap: \(origin)/maps/index.xml\n")
        for name in ["a", "b", "excluded", "newer"] { try nginx.site.write("hidden/\(name).html", "<p>hidden \(name)</p>") }
        try nginx.site.write("private/p.html", "<p>robots says no</p>")
        try nginx.site.write("maps/index.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sitemap><loc>\(origin)/maps/pages.xml.gz</loc></sitemap>
              <sitemap><loc>https://other.example/maps/elsewhere.xml</loc></sitemap>
            </sitemapindex>
            """)
        let pages = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><loc>\(origin)/hidden/a.html</loc><lastmod>2020-01-01</lastmod></url>
              <url><loc>\(origin)/hidden/b.html</loc><lastmod>2020-01-01T00:00:00Z</lastmod></url>
              <url><loc>\(origin)/hidden/excluded.html</loc></url>
              <url><loc>\(origin)/hidden/newer.html</loc><lastmod>2999-01-01</lastmod></url>
              <url><loc>\(origin)/private/p.html</loc></url>
              <url><loc>https://other.example/outside.html</loc></url>
            </urlset>
            """
        let scratch = try TemporaryDirectory()
        try pages.write(to: scratch.appending("pages.xml"), atomically: true, encoding: .utf8)
        let gzip = CommandRunner(executable: URL(fileURLWithPath: "/bin/gzip")).run(["-n", scratch.appending("pages.xml").path])
        guard gzip.succeeded else { throw NginxFixture.Site.Failure.writeFailed(path: "pages.xml.gz", reason: gzip.stderr) }
        try nginx.site.write("maps/pages.xml.gz", try Data(contentsOf: scratch.appending("pages.xml.gz")))
        return Fixture(nginx: nginx)
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    func mirror(_ f: Fixture, _ output: TemporaryDirectory, _ extra: [String]) -> CommandRunner.Result {
        runner.run(
            ["mirror", f.nginx.url(.mtls), "-o", output.path, "--name", "site", "--cacert", f.nginx.pki.path("server-root.pem"),
             "--cert", f.nginx.pki.path("client.p12"), "--pass-env", "MIRROR_TEST_PASS", "-j", "4", "--exclude", "/hidden/excluded"] + extra,
            environment: ["MIRROR_TEST_PASS": f.nginx.pki.password, "NO_COLOR": "1"], timeout: 120)
    }

    func exists(_ output: TemporaryDirectory, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: output.appending("site/current/\(path)").path)
    }

    @Test func pagesOnlyAGzipSitemapKnowsAreMirroredWithinTheScope() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = mirror(f, output, ["--sitemaps"])
        // Published, and partial only because robots.txt disallows one listed page.
        #expect(result.exitCode == 10, "\(result)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appending("site/current/_mirror/report.json"))) as? [String: Any]
        let errors = report?["errors"] as? [[String: Any]] ?? []
        #expect(errors.count == 1 && (errors.first?["url"] as? String)?.hasSuffix("/private/p.html") == true, "\(errors)")
        #expect(exists(output, "hidden/a.html") && exists(output, "hidden/b.html") && exists(output, "hidden/newer.html"))
        // The scope still rules: an --exclude'd page, a robots.txt-disallowed one, another host.
        #expect(!exists(output, "hidden/excluded.html"))
        let log = f.nginx.accessLogEntries(for: .mtls)
        #expect(!log.contains { $0.target == "/hidden/excluded.html" || $0.target == "/private/p.html" }, "\(log.map(\.target))")
        #expect(log.contains { $0.target == "/maps/pages.xml.gz" })
        // The sitemaps themselves are not part of the mirror.
        #expect(!exists(output, "maps/index.xml"))
    }

    @Test func withoutTheFlagTheHiddenPagesStayUnknown() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = mirror(f, output, [])
        #expect(result.exitCode == 0, "\(result)")
        #expect(exists(output, "index.html"))
        #expect(!exists(output, "hidden/a.html"))
    }

    @Test func lastmodLetsARefreshSkipTheRequestWhenAskedTo() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        #expect(mirror(f, output, ["--sitemaps"]).exitCode == 10)
        let before = f.nginx.accessLogEntries(for: .mtls).count
        let refresh = mirror(f, output, ["--sitemap-lastmod"])
        #expect(refresh.exitCode == 10, "\(refresh)")
        let requests = f.nginx.accessLogEntries(for: .mtls, atLeast: before + 1).dropFirst(before).map(\.target)
        // lastmod 2020: the copy is newer, no request; lastmod 2999: asked again.
        #expect(!requests.contains("/hidden/a.html") && !requests.contains("/hidden/b.html"), "\(requests)")
        #expect(requests.contains("/hidden/newer.html"), "\(requests)")
        #expect(exists(output, "hidden/a.html") && exists(output, "hidden/b.html"))
        // Without the flag, the refresh asks (conditionally) for every URL.
        let middle = f.nginx.accessLogEntries(for: .mtls).count
        #expect(mirror(f, output, ["--sitemaps"]).exitCode == 10)
        let asked = f.nginx.accessLogEntries(for: .mtls, atLeast: middle + 1).dropFirst(middle).map(\.target)
        #expect(asked.contains("/hidden/a.html"), "\(asked)")
    }
}
