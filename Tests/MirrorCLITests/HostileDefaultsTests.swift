import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MirrorTestSupport
import Testing

/// `mtls-mirror mirror` against `scripts/hostile-origin.py` as a new user runs it: **no option
/// but the identity and trust flags** (issue #22). The crawler-trap rules, the header deadline
/// and the floor rate are what must bound the run: it ends by itself, the traps cost a few
/// dozen requests, the normal site is complete and linked locally, every failing URL is named
/// with its cause, and nothing leaves the origin or the output folder.
@Suite(.serialized) struct HostileDefaultsTests {
    struct Run: Sendable {
        let origin: HostileOrigin
        let output: URL
        let scratch: URL
        let result: CommandRunner.Result
        let seconds: TimeInterval
        let peakKiB: Int
        /// Connections to 127.0.0.2 on the origin's port, where /redirect/other-ip points.
        let offOriginConnections: Int
        var snapshot: URL { output.appendingPathComponent("site/current").resolvingSymlinksInPath() }
    }

    /// The bound: the run ends by itself well within it.
    static let wallClockBound: TimeInterval = 300

    static let run = Result { () throws -> Run in
        let origin = try HostileOrigin()
        let scratch = try origin.scratchDirectory(named: "defaults")
        let output = try origin.scratchDirectory(named: "defaults/out")
        let work = try origin.scratchDirectory(named: "defaults/work")
        // /redirect/other-ip sends the crawl to 127.0.0.2 on the same port: nothing may connect.
        let offOrigin = try ConnectionCounter(host: "127.0.0.2", port: UInt16(origin.port))
        let binary = CommandRunner.builtBinary(named: "mtls-mirror")
        let memory = HostileOrigin.PeakMemory(executable: binary)
        let started = Date()
        let result = CommandRunner(executable: binary, workingDirectory: work).run(
            ["mirror", origin.url("/"), "-o", output.path, "--name", "site",
             "--cacert", origin.pki.path("server-root.pem"), "--cert", origin.pki.path("client.p12"), "--pass-env", "HOSTILE_PASS"],
            environment: ["HOSTILE_PASS": origin.pki.password, "NO_COLOR": "1"], timeout: wallClockBound + 60)
        let seconds = Date().timeIntervalSince(started)
        let peak = memory.stop()
        let connections = offOrigin.connections
        offOrigin.stop()
        return Run(origin: origin, output: output, scratch: scratch, result: result, seconds: seconds, peakKiB: peak,
                   offOriginConnections: connections)
    }

    @Test func theRunEndsByItselfAndExitsPartial() throws {
        let run = try Self.run.get()
        #expect(!run.result.timedOut && !run.result.killedBySignal, "\(run.result)")
        #expect(run.seconds < Self.wallClockBound, "\(run.seconds) s")
        // Some URLs failed (5xx, stalls, too large): published, exit 10.
        #expect(run.result.exitCode == 10, "\(run.result)")
        #expect(run.peakKiB > 0 && run.peakKiB < 256 * 1024, "VmHWM \(run.peakKiB) KiB")
        #expect(run.result.stderr.contains("held back by trap rules"), "\(run.result.stderr.suffix(3000))")
    }

    @Test func theTrapsCostAFewDozenRequests() throws {
        let run = try Self.run.get()
        let requests = run.origin.requests()
        let calendar = requests.filter { $0.path.hasPrefix("/calendar/") }.count
        let sessions = requests.filter { $0.path == "/s" }.count
        #expect(calendar >= 2 && calendar <= 25, "\(calendar) calendar requests")
        #expect(sessions >= 2 && sessions <= 8, "\(sessions) session-id requests")
        #expect(requests.count < 200, "\(requests.count) requests in all")
        // Every request carried the client certificate (the origin requires it), and nothing
        // reached the address the origin redirects to.
        #expect(requests.allSatisfy { $0.client == "mirror-client-1" })
        #expect(run.offOriginConnections == 0)
    }

    @Test func heldBackURLsAreReportedAndGetAPlaceholderNamingTheRule() throws {
        let run = try Self.run.get()
        let json = try HostileOriginTests.reportJSON(run.snapshot)
        let held = try #require(json["heldBack"] as? [[String: Any]])
        let rules = Dictionary(held.map { ($0["url"] as? String ?? "", $0["rule"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
        // The session id that grows, the 200-folder path and the 30-segment path.
        #expect(rules.contains { $0.key.hasPrefix(run.origin.url("/s?sid=")) && $0.value == "growing-value" }, "\(rules.values)")
        #expect(rules[run.origin.url(HostileOrigin.deepPath)] == "path-segments")
        #expect(rules[run.origin.url(HostileOrigin.longSegmentsPath)] == "path-segments")
        // The calendar is cut by the depth or by the shape chain, whichever comes first.
        let calendar = rules.filter { $0.key.hasPrefix(run.origin.url("/calendar/")) }
        #expect(!calendar.isEmpty && calendar.values.allSatisfy { ["depth", "shape-chain"].contains($0) }, "\(calendar)")
        #expect((json["heldBackCount"] as? Int) == held.count)
        // Each gets the page that says why, naming the rule and the option that lifts it.
        let manifest = try HostileOriginTests.manifest(run.snapshot)
        for (url, rule) in rules where !url.contains("/longsegs/") && !url.contains("/deep/") {
            let local = try #require(manifest[url]?.localPath, "\(url.prefix(100)) has no local path")
            let page = try String(contentsOf: run.snapshot.appendingPathComponent(local), encoding: .utf8)
            #expect(page.contains("Not in this mirror") && page.contains("<code>\(rule)</code>"), "\(local)")
            #expect(page.contains("--max-") || page.contains("--depth"), "\(local)")
        }
        // A page linking a held-back URL links its placeholder locally, never the origin.
        let verify = MirrorVerifier.verify(snapshotRoot: run.snapshot, originPrefixes: [run.origin.origin + "/calendar/"])
        #expect(verify.pointsAtOrigin.isEmpty, "\(verify.pointsAtOrigin.prefix(5))")
    }

    @Test func theNormalSiteIsCompleteAndLinkedLocally() throws {
        let run = try Self.run.get()
        let manifest = try HostileOriginTests.manifest(run.snapshot)
        var normalFiles: Set<String> = []
        for path in HostileOrigin.normalPaths {
            let entry = manifest[run.origin.url(path)]
            #expect(entry?.status == "200", "\(path): \(String(describing: entry))")
            if path.hasPrefix("/normal/"), let local = entry?.localPath { normalFiles.insert(local) }
        }
        let report = MirrorVerifier.verify(snapshotRoot: run.snapshot, originPrefixes: [run.origin.origin + "/"])
        #expect(report.broken.filter { normalFiles.contains($0.file) }.isEmpty, "\(report.broken)")
        #expect(report.pointsAtOrigin.filter { normalFiles.contains($0.file) }.isEmpty, "\(report.pointsAtOrigin)")
    }

    @Test func failingURLsAreNamedWithTheirCause() throws {
        let run = try Self.run.get()
        let errors = try HostileOriginTests.reportErrors(run.snapshot)
        let expected: [(String, Set<String>)] = [
            ("/error500", ["http-500"]),
            ("/huge.bin", ["too-large"]),
            ("/bomb.html", ["decompression-bomb"]),
            ("/stall.html", ["timeout"]),
            ("/trickle/headers", ["timeout"]),
            ("/trickle/body", ["timeout"]),
            ("/short.html", ["truncated"]),
            ("/loop/a", ["too-many-redirects"]),
            ("/redirect/other-ip", ["redirect-out-of-scope", "redirect-refused"]),
        ]
        for (path, kinds) in expected {
            let error = errors.first { $0.url == run.origin.url(path) }
            #expect(error.map { kinds.contains($0.kind) && !$0.cause.isEmpty } == true, "\(path): \(String(describing: error))")
        }
        // Named in the summary on standard error too.
        #expect(run.result.stderr.contains(run.origin.url("/trickle/headers")), "\(run.result.stderr.suffix(2000))")
        // The trickling responses were each cut off within the default deadlines (30 s, retried twice).
        let trickles = run.origin.requests().filter { $0.path.hasPrefix("/trickle/") }
        #expect(trickles.count <= 6, "\(trickles.count) trickle requests")
    }

    @Test func nothingIsWrittenOutsideTheOutputFolder() throws {
        let run = try Self.run.get()
        let outside = HostileOriginTests.listing(run.scratch).filter { !$0.hasPrefix("out") && !$0.hasPrefix("work") }
        #expect(outside.isEmpty, "\(outside)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.scratch.appendingPathComponent("work").path).isEmpty)
        let root = run.snapshot.path + "/"
        for relative in HostileOriginTests.listing(run.snapshot) {
            let real = run.snapshot.appendingPathComponent(relative).resolvingSymlinksInPath().path
            #expect(real.hasPrefix(root), "\(relative) resolves to \(real)")
        }
    }
}
