import Foundation
import MirrorStore
import MirrorTestSupport
import Testing

/// `--max-run-time` on a refresh of the generated benchmark site behind an nginx that paces
/// requests (`limit_req`, 100 a second), so that the budget runs out halfway: the run publishes
/// a snapshot that still holds every URL (those it did not revalidate carried over, marked
/// stale), exits 10, and the next refresh revalidates the stale URLs first.
@Suite(.serialized) struct RunBudgetTests {
    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    func mirror(_ nginx: NginxFixture, _ output: String, _ extra: [String]) -> CommandRunner.Result {
        runner.run(["mirror", nginx.url(.mtls), "-o", output, "--name", "site", "--cacert", nginx.pki.path("server-root.pem"),
                    "--cert", nginx.pki.path("client.p12"), "--pass-env", "BUDGET_PASS"] + extra,
                   environment: ["BUDGET_PASS": nginx.pki.password, "NO_COLOR": "1"], timeout: 300)
    }

    static func manifest(_ output: String) throws -> Manifest {
        let data = try Data(contentsOf: URL(fileURLWithPath: output + "/site/current/_mirror/manifest.tsv"))
        return try Manifest.decode(Array(data), path: "manifest.tsv")
    }

    static func report(_ output: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: output + "/site/current/_mirror/report.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aBudgetedRefreshPublishesEveryURLAndTheNextRevalidatesTheStaleOnesFirst() throws {
        // The generator's MIME types must be in nginx's configuration before it starts.
        let scratch = try TemporaryDirectory()
        let probe = try SiteGenerator.generate(into: scratch.url.appendingPathComponent("probe"), pages: 1)
        let nginx = try NginxFixture(.mtls, options: .init(
            extraHTTPDirectives: "limit_req_zone $server_port zone=pace:1m rate=100r/s;",
            extraServerDirectives: probe.typesConfiguration + "\nlimit_req zone=pace burst=100000;"))
        _ = try SiteGenerator.generate(into: nginx.site.root, pages: 150, seed: 22)
        let output = try TemporaryDirectory()
        let first = mirror(nginx, output.path, [])
        #expect(first.exitCode == 0, "\(first)")
        let full = try Self.manifest(output.path)
        let stored = Set(full.filter { $0.status.map { (200...299).contains($0) } == true }.map(\.url))
        #expect(stored.count > 250, "\(stored.count) URLs")
        let firstSnapshot = try FileManager.default.destinationOfSymbolicLink(atPath: output.path + "/site/current")

        // At 100 requests a second, 1.5 s revalidates about half.
        let budgeted = mirror(nginx, output.path, ["--max-run-time", "1.5s"])
        #expect(budgeted.exitCode == 10, "\(budgeted)")
        #expect(budgeted.stderr.contains("run-time budget"), "\(budgeted.stderr)")
        let partial = try Self.manifest(output.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output.path + "/site/current") != firstSnapshot)
        // Every URL is still there, with its status and its file.
        let current = output.path + "/site/current/"
        for url in stored {
            let entry = try #require(partial.entry(forKey: url), "\(url) was dropped")
            #expect(entry.status.map { (200...299).contains($0) } == true, "\(url): \(entry)")
            if let path = entry.localPath, entry.contentType?.hasPrefix("text/html") != true, !url.hasSuffix(".css") {
                #expect(FileManager.default.fileExists(atPath: current + path), "\(path) is missing")
            }
        }
        let stale = Set(partial.filter { $0.stale != nil }.map(\.url))
        #expect(!stale.isEmpty && stale.count < stored.count, "\(stale.count) of \(stored.count) stale")
        // A stale row keeps the time the URL was last checked.
        for url in stale.prefix(20) { #expect(partial.entry(forKey: url)?.fetchedAt == full.entry(forKey: url)?.fetchedAt) }
        let json = try Self.report(output.path)
        #expect(json["finishReason"] as? String == "runTimeLimit")
        #expect(json["stale"] as? Int == stale.count)
        #expect((json["notFetchedCount"] as? Int).map { $0 > 0 } == true)
        // The snapshot's links all resolve: stale documents were rewritten like fresh ones.
        let verify = MirrorVerifier.verify(snapshotRoot: URL(fileURLWithPath: current).resolvingSymlinksInPath(),
                                           originPrefixes: [nginx.url(.mtls)])
        #expect(verify.broken.isEmpty, "\(verify.broken.prefix(5))")
        #expect(verify.pointsAtOrigin.isEmpty, "\(verify.pointsAtOrigin.prefix(5))")

        // The next refresh, one request at a time, revalidates the stale URLs before any other.
        let before = nginx.accessLogEntries(for: .mtls).count
        let next = mirror(nginx, output.path, ["-j", "1"])
        #expect(next.exitCode == 0, "\(next)")
        let origin = nginx.url(.mtls).dropLast()
        let order = nginx.accessLogEntries(for: .mtls).dropFirst(before).map(\.target).filter { $0 != "/robots.txt" }
        let staleTargets = Set(stale.map { String($0.dropFirst(origin.count)) })
        #expect(Set(order.prefix(staleTargets.count)) == staleTargets, "first \(order.prefix(5)) …")
        #expect(try Self.manifest(output.path).filter { $0.stale != nil }.isEmpty)
    }
}
