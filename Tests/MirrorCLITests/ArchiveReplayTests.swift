import Foundation
import MirrorCore
import MirrorTestSupport
import Testing

/// `serve` replaying a site from its WARC files at the time the reader picks: the nearest
/// capture, revisits answered with the payload they repeat, links kept in the same timestamped
/// space, and a real browser that sees only the local server.
@Suite(.serialized) struct ArchiveReplayTests {
    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    struct Served {
        let site: ArchiveMirrorTests.Site
        let port: UInt16
        let process: Task<CommandRunner.Result, Never>
        let first: String
        let second: String
        var base: String { "http://127.0.0.1:\(port)" }
        /// `https://localhost:PORT`, without the path.
        var origin: String { "https://localhost:\(site.nginx.port(.mtls))" }
    }

    /// Two captures of the site a second apart (p1 changes in between), then `serve`.
    func captureTwiceAndServe() async throws -> Served {
        let site = try ArchiveMirrorTests.Site()
        #expect(runner.run(site.arguments, environment: site.environment, timeout: 300).exitCode == 0)
        try await Task.sleep(nanoseconds: 1_100_000_000)  // a new second: a new timestamp, a new ETag
        try site.nginx.site.write("p1.html", "<!doctype html><title>p1</title><link rel=stylesheet href=style.css><p>page 1, version 2</p>")
        #expect(runner.run(site.arguments, environment: site.environment, timeout: 300).exitCode == 0)
        // The time of each capture of p1 (a slow run, under a sanitizer, can reach p1 a second or
        // more after its first record; the nearest capture to that first record could then be
        // the previous run's).
        let stamps = try site.warcs().map { warc in
            let index = try String(contentsOfFile: warc.replacingOccurrences(of: "/archive/site-", with: "/archive/indexes/site-")
                .replacingOccurrences(of: ".warc.gz", with: ".cdxj"), encoding: .utf8)
            let lines = index.split(separator: "\n")
            let line = lines.first { $0.split(separator: " ").first?.hasSuffix("/p1.html") == true } ?? lines.first
            return String(line?.split(separator: " ")[1] ?? "")
        }
        try #require(stamps.count == 2 && stamps[0] < stamps[1], "\(stamps)")
        let port = FreePort.allocate()
        let runner = self.runner
        let output = site.output.path
        let process = Task.detached {
            runner.run(["serve", "-o", output, "--port", String(port), "--exit-after", "60"], environment: ["NO_COLOR": "1"], timeout: 90)
        }
        for _ in 0..<100 where !FreePort.isAccepting(port) { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(FreePort.isAccepting(port), "serve did not start")
        return Served(site: site, port: port, process: process, first: stamps[0], second: stamps[1])
    }

    func stop(_ served: Served) async -> CommandRunner.Result {
        _ = CommandRunner.forTool(named: "pkill")?.run(["-TERM", "-f", "serve -o \(served.site.output.path) "], timeout: 10)
        return await served.process.value
    }

    func curl(_ url: String) throws -> (status: Int, headers: String, body: String) {
        let curl = try #require(CommandRunner.forTool(named: "curl"))
        let result = curl.run(["-s", "-S", "--path-as-is", "-D", "-", "-o", "-", url], timeout: 30)
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let status = Int(parts.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, parts.first ?? "", parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    @Test func eachTimeShowsThePageAsItWasThen() async throws {
        let served = try await captureTwiceAndServe()
        let origin = served.origin
        let then = try curl(served.base + "/\(served.first)/\(origin)/p1.html")
        #expect(then.status == 200 && then.body.contains("page 1 text"), "\(then)")
        let now = try curl(served.base + "/\(served.second)/\(origin)/p1.html")
        #expect(now.status == 200 && now.body.contains("page 1, version 2"), "\(now.body.prefix(300))")
        // The nearest capture: long before the first is the first; a partial timestamp after both is the last.
        #expect(try curl(served.base + "/2000/\(origin)/p1.html").body.contains("page 1 text"))
        #expect(try curl(served.base + "/2099/\(origin)/p1.html").body.contains("version 2"))
        // An unchanged page is a revisit in the second file: answered with the payload it repeats.
        let revisited = try curl(served.base + "/\(served.second)/\(origin)/p3.html")
        #expect(revisited.status == 200 && revisited.body.contains("page 3 text"), "\(revisited.body.prefix(300))")
        #expect(revisited.headers.contains("Memento-Datetime: ") && revisited.headers.contains("rel=\"original\""), "\(revisited.headers)")
        // Links stay at the time asked for; a gzip'd stylesheet is served decoded, its url() rewritten too.
        #expect(now.body.contains("href=/\(served.second)/\(origin)/style.css>"), "\(now.body.prefix(400))")
        let css = try curl(served.base + "/\(served.first)/\(origin)/style.css")
        #expect(css.status == 200 && !css.headers.lowercased().contains("content-encoding"), "\(css.headers)")
        #expect(css.body.contains("url(/\(served.first)/\(origin)/img/bg.png)") && css.body.contains("url(/\(served.first)/\(origin)/extra.css)"),
                "\(css.body.prefix(300))")
        // What was never captured, and what is not a replay path.
        let missing = try curl(served.base + "/\(served.second)/\(origin)/never.html")
        #expect(missing.status == 404 && missing.body.contains("Not in the archive"), "\(missing)")
        #expect(try curl(served.base + "/p1.html").body.contains("version 2"), "the mirror itself is served as before")
        #expect(try curl(served.base + "/123/\(origin)/p1.html").status == 404, "a timestamp needs 4 to 14 digits")
        let result = await stop(served)
        #expect(result.exitCode == 0, "\(result)")
    }

    @Test func aBrowserReplaysThePageFromTheArchiveAlone() async throws {
        let served = try await captureTwiceAndServe()
        let browser = try HeadlessBrowser()
        let visit = try browser.visit(served.base + "/\(served.second)/\(served.origin)/")
        let result = await stop(served)
        #expect(visit.dom.contains("Archived over mTLS") && visit.dom.contains("data-ready=\"yes\""), "\(visit.dom.prefix(400))")
        let statuses = ServeCommandTests.accessStatuses(result.stderr).filter { !$0.target.hasSuffix("favicon.ico") }
        for path in ["/", "/style.css", "/extra.css", "/app.js", "/img/logo.png", "/img/bg.png"] {
            #expect(statuses.contains { $0.target == "/\(served.second)/\(served.origin)" + path }, "\(path) in \(statuses.map(\.target))")
        }
        #expect(statuses.allSatisfy { $0.status == 200 }, "\(statuses)")
        #expect(statuses.allSatisfy { $0.target.hasPrefix("/\(served.second)/") }, "every request stayed at the time asked: \(statuses.map(\.target))")
        let toOrigin = visit.requestedURLs.filter { $0.contains(":\(served.site.nginx.port(.mtls))") && !$0.hasPrefix(served.base) }
        #expect(toOrigin.isEmpty, "the browser reached for the origin: \(toOrigin)")
    }
}
