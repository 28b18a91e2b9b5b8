import Foundation
import MirrorCore
import MirrorScheduler
import MirrorStore
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// A file that stands in for standard output of an in-process command.
final class CapturedOutput {
    let path: String
    let descriptor: Int32
    private let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "captured-output")
        path = folder.path + "/out.txt"
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    }

    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    deinit { close(descriptor) }
}

/// An output root with two sites of real snapshots (published through the store) and history.
struct MirrorsFixture {
    let root: TemporaryDirectory
    var intranet: [String] = []
    var wiki: [String] = []

    init() throws {
        root = try TemporaryDirectory(prefix: "snapshots-cli")
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try SnapshotStore(siteDirectory: root.path + "/intranet")
        for (index, pages) in [3, 5, 8].enumerated() {
            let staging = try store.begin(now: base.addingTimeInterval(Double(index) * 3600))
            try staging.fileSystem.write(Array("v\(index)".utf8), to: "index.html")
            try staging.fileSystem.write(Array(#"{"pages": \#(pages), "fetched": \#(pages * 2), "failed": \#(index), "bytes": \#(pages * 1024), "finishedAt": "2027-01-15T08:01:00Z"}"#.utf8),
                                         to: "_mirror/report.json")
            try store.publish(staging)
            intranet.append(staging.id)
        }
        let wikiStore = try SnapshotStore(siteDirectory: root.path + "/wiki")
        let staging = try wikiStore.begin(now: base)
        try wikiStore.publish(staging)
        wiki.append(staging.id)
        let history = RunHistory(siteDirectory: root.path + "/intranet")
        try history.append(RunRecord(site: "intranet", startedAt: base, finishedAt: base.addingTimeInterval(30), outcome: .success,
                                     exitCode: 0, counts: .init(added: 3, unchanged: 0), bytes: 3072, snapshot: intranet[0]))
        try history.append(RunRecord(site: "intranet", startedAt: base.addingTimeInterval(7200), finishedAt: base.addingTimeInterval(7210),
                                     outcome: .failed, exitCode: 7, error: "connect to intranet.example:443 failed"))
        // Not a site: no snapshots folder.
        try FileManager.default.createDirectory(atPath: root.path + "/stray", withIntermediateDirectories: true)
    }

    func parse(_ spec: CommandSpec, _ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, spec: spec)
    }

    func current(_ site: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: root.path + "/" + site + "/current")
    }
}

@Suite struct SnapshotsCommandTests {
    @Test func listsEverySiteWithCurrentMarkerCountsAndRuns() async throws {
        let fixture = try MirrorsFixture()
        let out = try CapturedOutput()
        let command = SnapshotsCommand(arguments: try fixture.parse(SnapshotsCommand.spec, ["-o", fixture.root.path]),
                                       logger: .silent, output: out.descriptor)
        #expect(try await command.run() == .success)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "intranet  (\(fixture.root.path)/intranet)")
        #expect(lines.contains { $0.hasPrefix("  * \(fixture.intranet[2])") && $0.contains("2027-01-15 10:00 UTC") && $0.contains("8 pages") && $0.contains("(2 failed)") })
        #expect(lines.contains { $0.hasPrefix("    \(fixture.intranet[0])") && $0.contains("3 pages") })
        #expect(lines.contains("  last runs:"))
        #expect(lines.contains { $0.contains("failed  exit 7") && $0.contains("connect to intranet.example:443 failed") })
        #expect(lines.contains { $0.contains("success exit 0") && $0.contains("+3 ~0 -0 =0 !0") })
        #expect(lines.contains("wiki  (\(fixture.root.path)/wiki)"))
        #expect(!out.text.contains("stray"))
        // Newest first within a site.
        let newest = try #require(lines.firstIndex { $0.contains(fixture.intranet[2]) })
        let oldest = try #require(lines.firstIndex { $0.contains(fixture.intranet[0]) })
        #expect(newest < oldest)
    }

    @Test func jsonForOneSite() async throws {
        let fixture = try MirrorsFixture()
        let out = try CapturedOutput()
        let arguments = try fixture.parse(SnapshotsCommand.spec, ["intranet", "-o", fixture.root.path, "--json", "--runs", "1"])
        #expect(try await SnapshotsCommand(arguments: arguments, logger: .silent, output: out.descriptor).run() == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any])
        let sites = try #require(object["sites"] as? [[String: Any]])
        #expect(sites.count == 1)
        #expect(sites[0]["name"] as? String == "intranet")
        let snapshots = try #require(sites[0]["snapshots"] as? [[String: Any]])
        #expect(snapshots.map { $0["id"] as? String } == fixture.intranet.map { $0 })
        #expect(snapshots.map { $0["isCurrent"] as? Bool } == [false, false, true])
        #expect(snapshots[1]["pages"] as? Int == 5)
        #expect(snapshots[1]["bytes"] as? Int == 5120)
        #expect(snapshots[0]["date"] as? String == "2027-01-15T08:00:00Z")
        let runs = try #require(sites[0]["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs[0]["outcome"] as? String == "failed")
    }

    @Test func unknownSiteAndExtraArgumentsAreUsageErrors() async throws {
        let fixture = try MirrorsFixture()
        await #expect(throws: UsageError.self) {
            try await SnapshotsCommand(arguments: try fixture.parse(SnapshotsCommand.spec, ["stray", "-o", fixture.root.path]), logger: .silent).run()
        }
        await #expect(throws: UsageError.self) {
            try await SnapshotsCommand(arguments: try fixture.parse(SnapshotsCommand.spec, ["a", "b", "-o", fixture.root.path]), logger: .silent).run()
        }
    }

    @Test func siteNamesComeFromTheConfig() async throws {
        let fixture = try MirrorsFixture()
        let configPath = fixture.root.path + "/config.json"
        try Data(#"{"output": ".", "sites": [{"name": "wiki", "start": ["https://wiki.example/"]}]}"#.utf8).write(to: URL(fileURLWithPath: configPath))
        let out = try CapturedOutput()
        let arguments = try fixture.parse(SnapshotsCommand.spec, ["--config", configPath])
        #expect(try await SnapshotsCommand(arguments: arguments, logger: .silent, output: out.descriptor).run() == .success)
        #expect(out.text.hasPrefix("wiki  ("))
        #expect(!out.text.contains("intranet"))
    }

    @Test func helpHasExamplesAndConsistentFlags() {
        for spec in [SnapshotsCommand.spec, RollbackCommand.spec, ScheduleCommand.spec] {
            #expect(!spec.examples.isEmpty)
            #expect(spec.helpText.contains("-c, --config FILE"))
            #expect(spec.helpText.contains("-o, --output DIR"))
        }
        #expect(SnapshotsCommand.spec.helpText.contains("    --json"))
    }
}

@Suite struct RollbackCommandTests {
    func rollback(_ fixture: MirrorsFixture, _ arguments: [String], out: CapturedOutput? = nil) async throws -> ExitCode {
        let parsed = try fixture.parse(RollbackCommand.spec, arguments + ["-o", fixture.root.path])
        return try await RollbackCommand(arguments: parsed, logger: .silent, output: out?.descriptor ?? -1).run()
    }

    @Test func rollsBackToThePreviousThenToAnID() async throws {
        let fixture = try MirrorsFixture()
        let out = try CapturedOutput()
        #expect(try await rollback(fixture, ["intranet"], out: out) == .success)
        #expect(fixture.current("intranet") == "snapshots/" + fixture.intranet[1])
        #expect(out.text == fixture.intranet[1] + "\n")
        #expect(try await rollback(fixture, ["intranet", "--to", fixture.intranet[2]]) == .success)
        #expect(fixture.current("intranet") == "snapshots/" + fixture.intranet[2])
        #expect(try String(contentsOfFile: fixture.root.path + "/intranet/current/index.html", encoding: .utf8) == "v2")
        // The lock was released: another rollback works.
        #expect(try await rollback(fixture, ["intranet", "--to", fixture.intranet[0]]) == .success)
    }

    @Test func refusedWhileTheSiteIsLocked() async throws {
        let fixture = try MirrorsFixture()
        let lock = try SiteLock.acquire(siteDirectory: fixture.root.path + "/intranet", site: "intranet", command: "refresh")
        await #expect(throws: SiteLockError.self) { try await rollback(fixture, ["intranet"]) }
        #expect(fixture.current("intranet") == "snapshots/" + fixture.intranet[2])
        lock.release()
        #expect(try await rollback(fixture, ["intranet"]) == .success)
    }

    @Test func typedErrorsForNothingOlderAndUnknownIDs() async throws {
        let fixture = try MirrorsFixture()
        await #expect(throws: SnapshotError.nothingToRollBackTo(siteDirectory: fixture.root.path + "/wiki", current: fixture.wiki[0])) {
            try await rollback(fixture, ["wiki"])
        }
        await #expect(throws: SnapshotError.self) { try await rollback(fixture, ["intranet", "--to", "nope"]) }
        #expect(fixture.current("intranet") == "snapshots/" + fixture.intranet[2])
    }

    @Test(arguments: [["ghost"], ["../intranet"], [], ["a", "b"]])
    func badSitesAreUsageErrors(arguments: [String]) async throws {
        let fixture = try MirrorsFixture()
        await #expect(throws: UsageError.self) { try await rollback(fixture, arguments) }
        #expect(!FileManager.default.fileExists(atPath: fixture.root.path + "/ghost"))
    }
}
