import Foundation
import MirrorCore
import MirrorTestSupport
import Testing

/// `mtls-mirror mirror` end to end: a generated site with every reference kind behind nginx
/// with `ssl_verify_client on`, a second host serving CDN requisites, the built binary, and a
/// verifier that opens the copy as a browser would from disk.
@Suite(.serialized) struct MirrorCommandTests {
    /// The origin (mTLS) and a CDN host (asks for a certificate, logs what it gets).
    struct Fixture: Sendable {
        let origin: NginxFixture
        let cdn: NginxFixture
        let site: SiteGenerator.Site
        let pki: TestPKI
    }

    static let fixture = Result { () throws -> Fixture in
        let cdn = try NginxFixture(.plainTLS)
        let cdnHost = "localhost:\(cdn.port(.plainTLS))"
        // The generator's nginx types (extensionless pages are HTML) go into the origin's config.
        let scratch = try TemporaryDirectory()
        let probe = try SiteGenerator.generate(into: scratch.url.appendingPathComponent("probe"), pages: 1)
        let origin = try NginxFixture(.mtls, options: .init(extraServerDirectives: probe.typesConfiguration + """

            location = /robots.txt { default_type text/plain; return 200 "User-agent: *\\nDisallow: /private/\\n"; }
            """))
        let site = try SiteGenerator.generate(into: origin.site.root, pages: 60, seed: 7, cdnHost: cdnHost)
        try origin.site.write("private/secret.html", "<p>robots says no</p>")
        try origin.site.write("linked-private.html", #"<a href="private/secret.html">x</a><a href="missing-page.html">gone</a>"#)
        // Serve the CDN files as the CDN host's root.
        let cdnFiles = origin.site.root.appendingPathComponent("_cdn")
        for item in FileManager.default.enumerator(atPath: cdnFiles.path)?.compactMap({ $0 as? String }) ?? [] {
            var isDirectory: ObjCBool = false
            let source = cdnFiles.appendingPathComponent(item)
            if FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                try cdn.site.write(item, try Data(contentsOf: source))
            }
        }
        return Fixture(origin: origin, cdn: cdn, site: site, pki: origin.pki)
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    func mirror(_ f: Fixture, _ output: TemporaryDirectory, path: String = "/", _ extra: [String] = []) -> CommandRunner.Result {
        mirror(f, output, paths: [path], extra)
    }

    func mirror(_ f: Fixture, _ output: TemporaryDirectory, paths: [String], _ extra: [String] = []) -> CommandRunner.Result {
        let result = runner.run(
            ["mirror"] + paths.map { f.origin.url(.mtls, path: $0) } + ["-o", output.path, "--name", "site",
             "--cacert", f.pki.path("server-root.pem"), "--cert", f.pki.path("client.p12"), "--pass-env", "MIRROR_TEST_PASS",
             "--requisite-hosts", "localhost:\(f.cdn.port(.plainTLS))", "-j", "8"] + extra,
            environment: ["MIRROR_TEST_PASS": f.pki.password, "NO_COLOR": "1"], timeout: 300)
        #expect(!result.stderr.contains(f.pki.password))
        #expect(!result.stdout.contains(f.pki.password))
        #expect(!result.timedOut)
        return result
    }

    func manifestURLs(_ snapshot: URL) throws -> [String: String] {
        let text = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        var map: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("http") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            map[String(fields[0])] = fields.count > 1 ? String(fields[1]) : ""
        }
        return map
    }

    @Test func mirrorsEveryReferenceKindForOfflineUse() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = mirror(f, output, paths: ["/", "/linked-private.html"])
        // The site links to one missing page: published, but partial.
        #expect(result.exitCode == 10, "\(result)")
        let current = output.url.appendingPathComponent("site/current")
        let snapshot = current.resolvingSymlinksInPath()
        #expect(FileManager.default.fileExists(atPath: current.appendingPathComponent("index.html").path))

        // 100% of local references resolve from disk; none points at the origin or the CDN.
        let origin = Self.origin(f.origin.url(.mtls))
        let cdnOrigin = Self.origin(f.cdn.url(.plainTLS))
        let report = MirrorVerifier.verify(snapshotRoot: snapshot, originPrefixes: [origin, cdnOrigin])
        // The page that answered 404 keeps its reserved local path (serve --live can fetch it),
        // where a page says why it is missing; so does the page robots.txt forbids.
        #expect(report.broken.isEmpty, "\(report.broken.prefix(10))")
        let forbidden = try String(contentsOf: snapshot.appendingPathComponent("private/secret.html"), encoding: .utf8)
        #expect(forbidden.contains("robots.txt disallows it") && !forbidden.contains("href="), "\(forbidden)")
        let placeholder = try String(contentsOf: snapshot.appendingPathComponent("missing-page.html"), encoding: .utf8)
        #expect(placeholder.hasPrefix("<!doctype html>\n<!-- mtls-mirror: not mirrored -->"))
        #expect(placeholder.contains("links here") && !placeholder.contains("missing-page"), "\(placeholder)")
        #expect(placeholder.contains("<code>http-404</code>"), "\(placeholder)")
        #expect(!placeholder.contains("href="), "a placeholder links nowhere: \(placeholder)")
        #expect(report.pointsAtOrigin.isEmpty, "\(report.pointsAtOrigin.prefix(10))")
        #expect(report.escapesRoot.isEmpty, "\(report.escapesRoot.prefix(10))")
        #expect(report.checkedReferences > 1000)

        // 100% of reachable pages and requisites were mirrored, CDN ones included.
        let manifest = try manifestURLs(snapshot)
        let base = origin
        // A file referenced only with a query (css/main.css?v=3) is covered by that URL.
        let keys = Array(manifest.keys)
        let missing = f.site.expected.paths.filter { path in
            manifest[base + path] == nil && !keys.contains { $0.hasPrefix(base + path + "?") }
        }
        #expect(missing.isEmpty, "not mirrored: \(missing.prefix(10))")
        let cdnPaths = f.site.expected.cdn?.paths ?? []
        #expect(!cdnPaths.isEmpty)
        let missingCDN = cdnPaths.filter { manifest[cdnOrigin + $0] == nil }
        #expect(missingCDN.isEmpty, "CDN requisites not mirrored: \(missingCDN)")

        // The client identity never went to the CDN host.
        let subjects = f.cdn.loggedClientSubjects(atLeast: cdnPaths.count)
        #expect(subjects.count >= cdnPaths.count)
        #expect(subjects.allSatisfy { !$0.contains("mirror-client") }, "\(subjects)")

        // robots.txt was honoured; the missing page is reported with its referrer.
        // (Its manifest line: the reserved path, no status.)
        let manifestText = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        #expect(manifestText.contains("\n" + base + "/private/secret.html\t=private/secret.html\t\t"), "robots.txt was not honoured")
        #expect(manifest[base + "/missing-page.html"] == "=missing-page.html")
        let reportData = try Data(contentsOf: snapshot.appendingPathComponent("_mirror/report.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: reportData) as? [String: Any])
        let errors = try #require(json["errors"] as? [[String: Any]])
        #expect(errors.contains { ($0["url"] as? String)?.hasSuffix("/missing-page.html") == true && $0["kind"] as? String == "http-404"
                                  && ($0["referrer"] as? String)?.hasSuffix("/linked-private.html") == true })
        #expect(errors.contains { ($0["url"] as? String)?.hasSuffix("/private/secret.html") == true && $0["kind"] as? String == "robots" })
        #expect((json["outOfScope"] as? [String])?.contains("https://example.invalid/pixel.png") == true)

        // The password is in no file of the output (pages, manifest, report, history, lock).
        let everything = FileManager.default.enumerator(atPath: output.path)?.compactMap { $0 as? String } ?? []
        for relative in everything {
            guard let data = FileManager.default.contents(atPath: output.path + "/" + relative) else { continue }
            #expect(data.range(of: Data(f.pki.password.utf8)) == nil, "password found in \(relative)")
        }
        #expect(everything.contains { $0.hasSuffix("history.jsonl") })

        // Private: folders 0700, files 0600.
        let attributes = try FileManager.default.attributesOfItem(atPath: snapshot.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let page = try FileManager.default.attributesOfItem(atPath: snapshot.appendingPathComponent("index.html").path)
        #expect((page[.posixPermissions] as? Int) == 0o600)
        // No temporary files or partial snapshots are left.
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: output.url.appendingPathComponent("site/snapshots").path)
        #expect(snapshots.count == 1 && !snapshots[0].hasPrefix("."))
        #expect(!FileManager.default.fileExists(atPath: snapshot.appendingPathComponent("_mirror/tmp").path))
    }

    /// "https://localhost:PORT" from "https://localhost:PORT/".
    static func origin(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    @Test func ignoreRobotsFetchesDisallowedPages() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = mirror(f, output, path: "/linked-private.html", ["--ignore-robots", "--depth", "1"])
        #expect(result.exitCode == 10, "\(result)")  // still the missing page
        let manifest = try manifestURLs(output.url.appendingPathComponent("site/current").resolvingSymlinksInPath())
        #expect(manifest[f.origin.url(.mtls, path: "/private/secret.html")]?.isEmpty == false)
    }

    @Test func depthLimitStillFetchesRequisites() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = mirror(f, output, ["--depth", "0"])
        #expect(result.exitCode == 0, "\(result)")
        let snapshot = output.url.appendingPathComponent("site/current").resolvingSymlinksInPath()
        let manifest = try manifestURLs(snapshot)
        let lines = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        // Field 2 is the status: empty for a URL that was linked but not fetched.
        let pages = lines.filter { $0.count > 2 && $0[1].hasSuffix(".html") }
        let fetchedPages = pages.filter { !$0[2].isEmpty }.map { String($0[1].dropFirst()) }
        let reservedPages = pages.filter { $0[2].isEmpty }.map { (url: String($0[0]), path: String($0[1].dropFirst())) }
        #expect(fetchedPages == ["index.html"], "\(fetchedPages)")
        #expect(reservedPages.count >= 3, "\(reservedPages)")
        #expect(manifest.count > 3)  // the start page's stylesheets and images
        // Links to pages beyond the depth point at their reserved local paths, where a page says
        // why they are not in the copy; never at the origin. Every local reference resolves.
        let report = MirrorVerifier.verify(snapshotRoot: snapshot, originPrefixes: [Self.origin(f.origin.url(.mtls))])
        #expect(report.pointsAtOrigin.isEmpty, "\(report.pointsAtOrigin.prefix(5))")
        #expect(report.broken.isEmpty, "\(report.broken.prefix(5))")
        var inodes: [String: Set<UInt64>] = [:]  // a placeholder's text → the inodes that hold it
        for reserved in reservedPages {
            let file = snapshot.appendingPathComponent(reserved.path)
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.hasPrefix("<!doctype html>\n<!-- mtls-mirror: not mirrored -->"), "\(reserved.path)")
            #expect(text.contains("beyond the crawl limits"), "\(reserved.path)")
            #expect(!text.contains("href="), "\(reserved.path) links nowhere")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect(attributes[.posixPermissions] as? Int == 0o600, "\(reserved.path)")
            inodes[text, default: []].insert((attributes[.systemFileNumber] as? UInt64) ?? 0)
        }
        // The same page for the same reason is one file, hard-linked at every reserved path.
        #expect(inodes.count == 1 && inodes.values.allSatisfy { $0.count == 1 }, "\(inodes.values)")
        if let path = reservedPages.first?.path {
            var info = stat()
            #expect(lstat(snapshot.appendingPathComponent(path).path, &info) == 0)
            #expect(Int(info.st_nlink) == reservedPages.count, "one inode, \(reservedPages.count) names")
        }
    }

    @Test func theRootIndexLeadsToTheStartPageEvenWhenTheSiteRootIsNotMirrored() throws {
        let f = try Self.fixture.get()
        try f.origin.site.write("sub/start.html", #"<!doctype html><title>start</title><a href="/">home</a>"#)
        let output = try TemporaryDirectory()
        let result = mirror(f, output, path: "/sub/start.html", ["--depth", "0"])
        #expect(result.exitCode == 0, "\(result)")
        let snapshot = output.url.appendingPathComponent("site/current").resolvingSymlinksInPath()
        // "/" is beyond the depth: its reserved path is index.html, which leads to the start page.
        let manifest = try manifestURLs(snapshot)
        #expect(manifest[Self.origin(f.origin.url(.mtls)) + "/"] == "=index.html")
        let index = try String(contentsOf: snapshot.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("url=sub/start.html"), "\(index)")
        #expect(!index.contains("Not in this mirror"))
        let start = try String(contentsOf: snapshot.appendingPathComponent("sub/start.html"), encoding: .utf8)
        #expect(start.contains(#"<a href="../index.html">"#), "\(start)")
    }

    @Test func failedStartPublishesNothing() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let rejected = runner.run(
            ["mirror", f.origin.url(.mtls), "-o", output.path, "--name", "site", "--cacert", f.pki.path("server-root.pem")],
            environment: ["NO_COLOR": "1"], timeout: 120)
        #expect(rejected.exitCode == 5, "\(rejected)")
        #expect(rejected.stderr.contains("client certificate"))
        let untrusted = runner.run(
            ["mirror", f.origin.url(.mtls), "-o", output.path, "--name", "site",
             "--cert", f.pki.path("client.p12"), "--pass-env", "P"],
            environment: ["P": f.pki.password, "NO_COLOR": "1"], timeout: 120)
        #expect(untrusted.exitCode == 4, "\(untrusted)")
        let site = output.url.appendingPathComponent("site")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("current").path))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("snapshots").path)) ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// An output folder that cannot be created (a file stands in its way) is an I/O error
    /// (exit 8) naming the folder and the cause, not "another run holds the lock".
    @Test func anOutputFolderThatCannotBeCreatedIsAnIOErrorNamingIt() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        try Data("not a folder".utf8).write(to: output.url.appendingPathComponent("file"))
        let result = runner.run(
            ["mirror", f.origin.url(.mtls), "-o", output.path + "/file", "--name", "site", "--cacert", f.pki.path("server-root.pem"),
             "--cert", f.pki.path("client.p12"), "--pass-env", "P"],
            environment: ["P": f.pki.password, "NO_COLOR": "1"], timeout: 120)
        #expect(result.exitCode == 8, "\(result)")
        #expect(result.stderr.contains("cannot create the folder '\(output.path)/file/site': Not a directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("another refresh"))
        #expect(try String(contentsOf: output.url.appendingPathComponent("file"), encoding: .utf8) == "not a folder")
    }

    @Test func secondRunPublishesANewSnapshotAtomically() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        #expect(mirror(f, output, path: "/about", ["--depth", "0"]).exitCode == 0)
        let current = output.url.appendingPathComponent("site/current")
        let first = try FileManager.default.destinationOfSymbolicLink(atPath: current.path)
        #expect(mirror(f, output, path: "/about", ["--depth", "0"]).exitCode == 0)
        let second = try FileManager.default.destinationOfSymbolicLink(atPath: current.path)
        #expect(first != second)
        // The older snapshot is still complete.
        let older = output.url.appendingPathComponent("site").appendingPathComponent(first)
        #expect(FileManager.default.fileExists(atPath: older.appendingPathComponent("_mirror/manifest.tsv").path))
    }

    @Test func runsTheSitesOfAConfigFile() throws {
        let f = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let config = output.url.appendingPathComponent("config.json")
        let json = """
            {
              "$comment": "test config",
              "output": "\(output.path)/mirrors",
              "sites": [{
                "name": "cfg",
                "start": ["\(f.origin.url(.mtls, path: "/about"))"],
                "identity": {"cert": "\(f.pki.path("client.p12"))", "password": {"env": "CFG_PASS"}},
                "trust": {"default": {"type": "default", "cacert": ["\(f.pki.path("server-root.pem"))"]}},
                "scope": {"depth": 0}
              }]
            }
            """
        try Data(json.utf8).write(to: config)
        let result = runner.run(["mirror", "--config", config.path], environment: ["CFG_PASS": f.pki.password, "NO_COLOR": "1"], timeout: 120)
        #expect(result.exitCode == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent("mirrors/cfg/current/_mirror/report.json").path))
        let bad = runner.run(["mirror", "--config", config.path, "--site", "nope"], environment: ["NO_COLOR": "1"], timeout: 60)
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("nope"))
    }
}
