import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MirrorTestSupport
import Testing

/// One `mtls-mirror mirror` run against `scripts/hostile-origin.py` (crawl traps, redirect loops,
/// traversal names, a 1 GiB body, a gzip bomb, stalls, malformed documents) with tight limits,
/// then every invariant of the "Hardening" issue: the run ends, exits 10, writes only inside its
/// output folder, mirrors the normal pages completely, names every hostile URL in its report
/// with a cause, stays within its memory bound, bounds the traps, and never shows the password.
@Suite(.serialized) struct HostileOriginTests {
    /// What the one run left behind, shared by the checks.
    struct Run: Sendable {
        let origin: HostileOrigin
        /// The folder holding the output and the working directory, and nothing else.
        let scratch: URL
        let output: URL
        let work: URL
        let result: CommandRunner.Result
        let seconds: TimeInterval
        let peakKiB: Int
        let listingBefore: Set<String>
        let tmpEvilBefore: Set<String>

        var snapshot: URL { output.appendingPathComponent("site/current").resolvingSymlinksInPath() }
    }

    static let wallClockBound: TimeInterval = 120

    static let run = Result { () throws -> Run in
        let origin = try HostileOrigin()
        // The output sits two folders down, so that "../../evil.txt" from the site folder
        // would still land inside the scratch folder, where the listing sees it.
        let scratch = try origin.scratchDirectory(named: "run")
        let output = try origin.scratchDirectory(named: "run/a/b/out")
        let work = try origin.scratchDirectory(named: "run/a/b/work")
        let listingBefore = Set(listing(scratch))
        let tmpEvilBefore = evilEntries(in: "/tmp")

        let binary = CommandRunner.builtBinary(named: "mtls-mirror")
        let runner = CommandRunner(executable: binary, workingDirectory: work)
        let memory = HostileOrigin.PeakMemory(executable: binary)
        let started = Date()
        let result = runner.run(
            ["mirror", origin.url("/"), "-o", output.path, "--name", "site",
             "--cacert", origin.pki.path("server-root.pem"), "--cert", origin.pki.path("client.p12"),
             "--pass-env", "HOSTILE_PASS", "--max-file-size", "20MiB", "--idle-timeout", "3", "--max-time", "20",
             "--max-pages", "400", "--max-redirs", "10", "--retry", "1", "-j", "8"],
            environment: ["HOSTILE_PASS": origin.pki.password, "NO_COLOR": "1"], timeout: wallClockBound)
        let seconds = Date().timeIntervalSince(started)
        let peak = memory.stop()
        return Run(origin: origin, scratch: scratch, output: output, work: work, result: result, seconds: seconds,
                   peakKiB: peak,
                   listingBefore: listingBefore, tmpEvilBefore: tmpEvilBefore)
    }

    @Test func theRunEndsInTimeAsPartial() throws {
        let run = try Self.run.get()
        #expect(!run.result.timedOut, "\(run.result)")
        #expect(!run.result.killedBySignal, "\(run.result)")
        #expect(run.seconds < Self.wallClockBound)
        #expect(run.result.exitCode == 10, "\(run.result)")
        #expect(FileManager.default.fileExists(atPath: run.snapshot.appendingPathComponent("_mirror/report.json").path))
        #expect(!run.origin.errorOutput().contains("Traceback"), "\(run.origin.errorOutput().suffix(2000))")
    }

    @Test func nothingIsWrittenOutsideTheOutputFolder() throws {
        let run = try Self.run.get()
        let outputPrefix = "a/b/out/"
        let after = Set(Self.listing(run.scratch)).filter { !$0.hasPrefix(outputPrefix) }
        #expect(after == run.listingBefore.filter { !$0.hasPrefix(outputPrefix) }, "new: \(after.subtracting(run.listingBefore))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.work.path).isEmpty)
        #expect(Self.evilEntries(in: "/tmp") == run.tmpEvilBefore)
        #expect(Self.evilEntries(in: "/").isEmpty)
        // No file takes the Content-Disposition name, inside the snapshot or out.
        let all = Self.listing(run.scratch)
        #expect(!all.contains { ($0 as NSString).lastPathComponent == "evil.txt" }, "\(all.filter { $0.contains("evil.txt") })")
        // Every evil* file is inside the snapshot.
        let snapshotPrefix = run.snapshot.path + "/"
        let strays = all.filter { $0.contains("evil") }
            .map { run.scratch.appendingPathComponent($0).resolvingSymlinksInPath().path }
            .filter { !$0.hasPrefix(snapshotPrefix) }
        #expect(strays.isEmpty, "\(strays)")
    }

    @Test func everyPathOfTheSnapshotStaysInsideIt() throws {
        let run = try Self.run.get()
        let root = run.snapshot.path
        let paths = Self.listing(run.snapshot)
        #expect(paths.count > 50)
        for relative in paths {
            let real = URL(fileURLWithPath: root).appendingPathComponent(relative).resolvingSymlinksInPath().path
            #expect(real.hasPrefix(root + "/"), "\(relative) resolves to \(real)")
            let components = relative.split(separator: "/").map(String.init)
            #expect(!components.contains(".."), "\(relative)")
            for name in components {
                #expect(name.utf8.count <= 255, "\(relative)")
                #expect(!name.unicodeScalars.contains { $0.value < 0x20 || #"\:*?"<>|"#.unicodeScalars.contains($0) },
                        "Windows-unsafe character in \(relative)")
                let stem = (name.split(separator: ".", omittingEmptySubsequences: false).first ?? "").lowercased()
                #expect(!Self.reservedDeviceNames.contains(stem), "Windows device name in \(relative)")
            }
        }
        // No reference of any mirrored document leads outside the snapshot.
        let report = MirrorVerifier.verify(snapshotRoot: run.snapshot, originPrefixes: [run.origin.origin + "/"])
        let nulPage = report.escapesRoot.filter { $0.file.hasPrefix("malformed/nu") }
        #expect(report.escapesRoot.count == nulPage.count, "\(report)")
        #expect(nulPage.isEmpty, "\(nulPage)")
    }

    @Test func theNormalPagesAreComplete() throws {
        let run = try Self.run.get()
        let manifest = try Self.manifest(run.snapshot)
        var normalFiles: Set<String> = []
        for path in HostileOrigin.normalPaths {
            let entry = manifest[run.origin.url(path)]
            #expect(entry?.status == "200", "\(path): \(String(describing: entry))")
            guard let local = entry?.localPath else { continue }
            #expect(FileManager.default.fileExists(atPath: run.snapshot.appendingPathComponent(local).path), "\(local)")
            if path.hasPrefix("/normal/") { normalFiles.insert(local) }
        }
        #expect(normalFiles.count == HostileOrigin.normalPaths.count - 1)
        let report = MirrorVerifier.verify(snapshotRoot: run.snapshot, originPrefixes: [run.origin.origin + "/"])
        let broken = report.broken.filter { normalFiles.contains($0.file) }
        let atOrigin = report.pointsAtOrigin.filter { normalFiles.contains($0.file) }
        #expect(broken.isEmpty, "\(broken)")
        #expect(atOrigin.isEmpty, "\(atOrigin)")
        #expect(report.unreadable.filter { normalFiles.contains($0.file) }.isEmpty, "\(report.unreadable)")
        #expect(report.resolvedReferences > 20)
        // The 503 (Retry-After: 1) was retried and mirrored; the survivable oddities were stored.
        for path in ["/error503", "/Case.html", "/case.html", "/download", "/charset.html", "/wrongtype/html-as-png",
                     "/wrongtype/png-as-html", "/malformed/unclosed.html", "/malformed/nested.html",
                     "/malformed/invalid-utf8.html", "/malformed/nul.html", "/malformed/imports.html", "/css/a.css",
                     "/css/b.css", "/unsafe/"] {
            #expect(manifest[run.origin.url(path)]?.status == "200", "\(path.prefix(80)): \(String(describing: manifest[run.origin.url(path)]))")
        }
        // Case-colliding names get two files with their own bodies.
        let upper = try #require(manifest[run.origin.url("/Case.html")]?.localPath)
        let lower = try #require(manifest[run.origin.url("/case.html")]?.localPath)
        #expect(upper.lowercased() != lower.lowercased())
        let upperBody = try String(contentsOf: run.snapshot.appendingPathComponent(upper), encoding: .utf8)
        let lowerBody = try String(contentsOf: run.snapshot.appendingPathComponent(lower), encoding: .utf8)
        #expect(upperBody.contains("upper-case") && lowerBody.contains("lower-case"))
    }

    @Test func theReportNamesEveryHostileURLWithItsCause() throws {
        let run = try Self.run.get()
        let errors = try Self.reportErrors(run.snapshot)
        let expected: [(path: String, kinds: Set<String>)] = [
            ("/huge.bin", ["too-large"]),
            ("/bomb.html", ["decompression-bomb"]),
            ("/stall.html", ["timeout"]),
            ("/short.html", ["truncated"]),
            ("/malformed/longline.html", ["too-large"]),
            ("/loop/a", ["too-many-redirects"]),
            ("/chain/0", ["too-many-redirects"]),
            ("/redirect/downgrade", ["redirect-refused"]),
            ("/redirect/file", ["redirect-refused"]),
            ("/redirect/other-host", ["redirect-out-of-scope", "redirect-refused"]),
            ("/redirect/other-ip", ["redirect-out-of-scope", "redirect-refused"]),
            ("/error500", ["http-500"]),
            ("/trickle/headers", ["timeout"]),
            ("/trickle/body", ["timeout"]),
        ]
        for (path, kinds) in expected {
            let error = errors.first { $0.url == run.origin.url(path) }
            #expect(error.map { kinds.contains($0.kind) } == true, "\(path): \(String(describing: error))")
            #expect(error.map { !$0.cause.isEmpty } == true, "\(path)")
            #expect(error?.referrer == run.origin.url("/"), "\(path): \(String(describing: error))")
        }
        // Nothing failed for another reason (no crash, no I/O error, no normal page).
        let known = Set(expected.map { run.origin.url($0.path) })
        let unexpected = errors.filter { !known.contains($0.url) }
        #expect(unexpected.isEmpty, "\(unexpected)")
        #expect(!errors.contains { $0.kind == "internal" || $0.kind == "io" })
    }

    /// Every in-scope link under the URL limit is mirrored or reported, never silently left
    /// pointing at the origin.
    @Test func longPathsAreMirroredOrReported() throws {
        let run = try Self.run.get()
        let manifest = try Self.manifest(run.snapshot)
        let errors = Set(try Self.reportErrors(run.snapshot).map(\.url))
        for path in [HostileOrigin.longPath, HostileOrigin.longSegmentsPath] {
            let url = run.origin.url(path)
            #expect(url.utf8.count < 8192)
            #expect(manifest[url] != nil || errors.contains(url), "\(path.prefix(40))… was neither mirrored nor reported")
        }
        // The 200-folder path is held back by the path-segment rule (on by default): it keeps
        // a local path without a status, and the report names the rule.
        let deep = run.origin.url(HostileOrigin.deepPath)
        #expect(manifest[deep]?.status == "", "\(String(describing: manifest[deep]))")
        let held = try #require(try Self.reportJSON(run.snapshot)["heldBack"] as? [[String: Any]])
        #expect(held.contains { $0["url"] as? String == deep && $0["rule"] as? String == "path-segments" })
    }

    @Test func peakMemoryIsBounded() throws {
        let run = try Self.run.get()
        let limitKiB = 256 * 1024
        #expect(run.peakKiB > 0, "the watcher never saw the mtls-mirror process")
        #expect(run.peakKiB < limitKiB, "VmHWM \(run.peakKiB) KiB")
    }

    /// The trap rules (on by default) bound the traps long before --max-pages.
    @Test func crawlTrapsAreBoundedByTheTrapRules() throws {
        let run = try Self.run.get()
        let manifest = try Self.manifest(run.snapshot)
        let calendar = manifest.keys.filter { $0.hasPrefix(run.origin.url("/calendar/")) }.count
        let sessions = manifest.keys.filter { $0.hasPrefix(run.origin.url("/s?sid=")) }.count
        #expect(calendar > 2 && sessions > 2)
        #expect(calendar <= 26 && sessions <= 8, "\(calendar) calendar and \(sessions) session URLs")
        // Unfetched pages keep a reserved local path in the manifest, without a status.
        let fetched = manifest.values.filter { !$0.status.isEmpty }.count
        #expect(fetched <= 400, "\(fetched) fetched URLs in the manifest")
        let requests = run.origin.requests()
        let trapRequests = requests.filter { $0.path.hasPrefix("/calendar/") || $0.path == "/s" }.count
        #expect(trapRequests <= 30, "\(trapRequests) trap requests")
        // The chain and the loop stop at --max-redirs.
        #expect(requests.filter { $0.path.hasPrefix("/chain/") }.count <= 2 * 11)
        #expect(requests.filter { $0.path.hasPrefix("/loop/") }.count <= 2 * 11)
        let json = try Self.reportJSON(run.snapshot)
        #expect((json["fetched"] as? Int).map { $0 <= 400 } == true)
        #expect(json["finishReason"] as? String == "exhausted")
        #expect((json["heldBackCount"] as? Int).map { $0 >= 3 } == true, "\(json["heldBackByRule"] ?? "none")")
        // Every request carried the client certificate (the origin requires it).
        #expect(requests.allSatisfy { $0.client == "mirror-client-1" })
    }

    /// A refresh that a signal interrupts while transfers are in flight: `signals` SIGINTs,
    /// once the origin has seen the stalling request. The previous snapshot was mirrored from
    /// /normal/; the refresh starts elsewhere (the calendar, the session ids, a stall), so what
    /// it does not reach is exactly the previous snapshot's content.
    struct Interrupted {
        let output: URL
        let previous: URL
        let previousFiles: [String]
        let current: URL
        let status: Int32
        let stderr: String
        let secondsToStop: TimeInterval
    }

    static func interruptedRefresh(signals: Int, name: String) throws -> Interrupted {
        let run = try Self.run.get()
        let origin = run.origin
        let output = try origin.scratchDirectory(named: "\(name)/out")
        let binary = CommandRunner.builtBinary(named: "mtls-mirror")
        let tls = ["--cacert", origin.pki.path("server-root.pem"), "--cert", origin.pki.path("client.p12"),
                   "--pass-env", "HOSTILE_PASS"]
        let environment = ["HOSTILE_PASS": origin.pki.password, "NO_COLOR": "1"]
        let first = CommandRunner(executable: binary).run(
            ["mirror", origin.url("/normal/"), "-o", output.path, "--name", "site"] + tls, environment: environment, timeout: 60)
        #expect(first.exitCode == 0, "\(first)")
        let current = output.appendingPathComponent("site/current")
        let previous = current.resolvingSymlinksInPath()
        let previousFiles = Self.listing(previous).filter { !$0.hasPrefix("_mirror") }.sorted()
        #expect(previousFiles.contains("normal/a.html"), "\(previousFiles)")

        let stallsBefore = origin.requests().filter { $0.path == "/stall.html" }.count
        let process = Process()
        process.executableURL = binary
        process.arguments = ["mirror", origin.url("/calendar/2026/11"), origin.url("/s?sid=a"), origin.url("/stall.html"),
                             "-o", output.path, "--name", "site", "-j", "8", "--idle-timeout", "60"] + tls
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Interrupt while the stalling response is in flight.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning, origin.requests().filter({ $0.path == "/stall.html" }).count <= stallsBefore {
            usleep(50_000)
        }
        usleep(500_000)
        #expect(process.isRunning, "the refresh ended before it was interrupted")
        let signalled = Date()
        for number in 0..<signals {
            if number > 0 { usleep(300_000) }
            kill(process.processIdentifier, SIGINT)
        }
        while process.isRunning, Date().timeIntervalSince(signalled) < 30 { usleep(20_000) }
        let seconds = Date().timeIntervalSince(signalled)
        #expect(!process.isRunning, "still running 30 s after SIGINT")
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Interrupted(output: output, previous: previous, previousFiles: previousFiles, current: current,
                           status: process.isRunning ? -1 : process.terminationStatus, stderr: stderr, secondsToStop: seconds)
    }

    /// One SIGINT: the run stops within seconds with 130 but publishes: the new snapshot keeps
    /// the previous copy of every URL it did not reach (hard links, manifest rows marked stale
    /// with the time they were last checked), so it is never smaller than the old one; and the
    /// next run revalidates the stale URLs before anything else.
    @Test func aFirstSignalPublishesAPartialRefreshThatKeepsEveryPreviousFile() throws {
        let interrupted = try Self.interruptedRefresh(signals: 1, name: "interrupted-once")
        #expect(interrupted.status == 130, "\(interrupted.stderr)")
        #expect(interrupted.secondsToStop < 15, "took \(interrupted.secondsToStop) s to stop")
        let published = interrupted.current.resolvingSymlinksInPath()
        #expect(published != interrupted.previous, "nothing new was published")
        let files = Set(Self.listing(published))
        let missing = interrupted.previousFiles.filter { !files.contains($0) }
        #expect(missing.isEmpty, "the new snapshot lost \(missing)")
        let old = try Data(contentsOf: interrupted.previous.appendingPathComponent("normal/style.css"))
        #expect(try Data(contentsOf: published.appendingPathComponent("normal/style.css")) == old)
        // The carried rows are marked stale and keep their last-checked time.
        let text = try String(contentsOf: published.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        let origin = try Self.run.get().origin
        let styleRow = try #require(text.split(separator: "\n").first { $0.hasPrefix(origin.url("/normal/style.css") + "\t") })
        #expect(styleRow.split(separator: "\t", omittingEmptySubsequences: false)[10].hasPrefix("=stale:"), "\(styleRow)")
        let json = try Self.reportJSON(published)
        #expect(json["finishReason"] as? String == "interrupted")
        #expect((json["stale"] as? Int).map { $0 >= interrupted.previousFiles.count / 2 } == true, "\(json["stale"] ?? "-")")
        let notFetched = try #require(json["notFetched"] as? [String])
        #expect(notFetched.contains(origin.url("/stall.html")), "\(notFetched)")
        #expect(interrupted.stderr.contains("not fetched"), "\(interrupted.stderr)")

        // The next run revalidates the stale URLs first: with one transfer at a time, the
        // origin sees them right after robots.txt, before the start page.
        let before = origin.requests().count
        let stale = Set(text.split(separator: "\n").filter { $0.split(separator: "\t", omittingEmptySubsequences: false).count > 10
            && $0.split(separator: "\t", omittingEmptySubsequences: false)[10].hasPrefix("=stale:") }
            .map { String($0.split(separator: "\t")[0].dropFirst(origin.origin.count)) })
        let next = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror")).run(
            ["mirror", origin.url("/"), "-o", interrupted.output.path, "--name", "site", "-j", "1", "--idle-timeout", "2",
             "--retry", "0", "--max-pages", "30", "--cacert", origin.pki.path("server-root.pem"),
             "--cert", origin.pki.path("client.p12"), "--pass-env", "HOSTILE_PASS"],
            environment: ["HOSTILE_PASS": origin.pki.password, "NO_COLOR": "1"], timeout: 120)
        #expect([0, 10].contains(next.exitCode), "\(next)")
        let order = origin.requests().dropFirst(before).map(\.target).filter { $0 != "/robots.txt" }
        #expect(Set(order.prefix(stale.count)) == stale, "first requests \(order.prefix(stale.count)), stale \(stale)")
    }

    /// Two SIGINTs: the second aborts. Nothing is published, and the previous snapshot stays
    /// current and whole.
    @Test func aSecondSignalAbortsAndKeepsThePreviousSnapshot() throws {
        let interrupted = try Self.interruptedRefresh(signals: 2, name: "interrupted-twice")
        #expect(interrupted.status == 130, "\(interrupted.stderr)")
        #expect(interrupted.secondsToStop < 10, "took \(interrupted.secondsToStop) s to stop")
        #expect(interrupted.stderr.contains("interrupted"), "\(interrupted.stderr)")
        #expect(interrupted.current.resolvingSymlinksInPath() == interrupted.previous)
        #expect(Self.listing(interrupted.previous).filter { !$0.hasPrefix("_mirror") }.sorted() == interrupted.previousFiles)
        let snapshots = try FileManager.default.contentsOfDirectory(
            atPath: interrupted.output.appendingPathComponent("site/snapshots").path)
        #expect(snapshots == [interrupted.previous.lastPathComponent], "\(snapshots)")
    }

    @Test func thePasswordAppearsNowhere() throws {
        let run = try Self.run.get()
        let password = run.origin.pki.password
        #expect(!run.result.stdout.contains(password))
        #expect(!run.result.stderr.contains(password))
        let needle = Data(password.utf8)
        for relative in Self.listing(run.scratch) {
            guard let data = FileManager.default.contents(atPath: run.scratch.appendingPathComponent(relative).path) else { continue }
            #expect(data.range(of: needle) == nil, "password found in \(relative)")
        }
    }
}

extension HostileOriginTests {
    /// One line of `_mirror/manifest.tsv`.
    struct ManifestEntry: Sendable, CustomStringConvertible {
        var localPath: String?
        var status: String
        var description: String { "\(localPath ?? "-") \(status)" }
    }

    /// One entry of the report's `errors`.
    struct ReportError: Sendable, CustomStringConvertible {
        var url: String
        var kind: String
        var cause: String
        var referrer: String?
        var description: String { "\(kind) \(url.prefix(120)): \(cause.prefix(200)) (from \(referrer ?? "-"))" }
    }

    /// Names Windows reserves for devices, whatever the extension.
    static let reservedDeviceNames = Set(["con", "prn", "aux", "nul"]
        + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// Every path under `root`, relative to it, folders included; symbolic links are listed, not followed.
    static func listing(_ root: URL) -> [String] {
        FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    }

    /// The entries of `directory` whose name contains "evil".
    static func evilEntries(in directory: String) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.lowercased().contains("evil") })
    }

    /// The manifest by URL.
    static func manifest(_ snapshot: URL) throws -> [String: ManifestEntry] {
        let text = try String(contentsOf: snapshot.appendingPathComponent("_mirror/manifest.tsv"), encoding: .utf8)
        var map: [String: ManifestEntry] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("http") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let local = fields.count > 1 && !fields[1].isEmpty ? String(fields[1].drop { $0 == "=" }) : nil
            map[fields[0]] = ManifestEntry(localPath: local, status: fields.count > 2 ? fields[2] : "")
        }
        return map
    }

    static func reportJSON(_ snapshot: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: snapshot.appendingPathComponent("_mirror/report.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func reportErrors(_ snapshot: URL) throws -> [ReportError] {
        let errors = try #require(try reportJSON(snapshot)["errors"] as? [[String: Any]])
        return errors.map {
            ReportError(url: $0["url"] as? String ?? "", kind: $0["kind"] as? String ?? "",
                        cause: $0["cause"] as? String ?? "", referrer: $0["referrer"] as? String)
        }
    }
}
