import Foundation
import MirrorCore
import MirrorScheduler
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// A config with three sites: two scheduled (6h and 5h) and one on demand only.
struct ScheduleFixture {
    let folder: TemporaryDirectory
    var configPath: String { folder.path + "/config.json" }
    var output: String { folder.path + "/output" }

    init() throws {
        folder = try TemporaryDirectory(prefix: "schedule-cli")
        try Data("""
            {"output": "output", "sites": [
              {"name": "intranet", "start": ["https://intranet.example/"], "refresh": {"every": "6h", "jitter": "10m"}},
              {"name": "odd", "start": ["https://odd.example/"], "refresh": {"every": "5h"}},
              {"name": "manual", "start": ["https://manual.example/"]}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    func command(_ arguments: [String], runner: RefreshRunner? = nil, clock: any SchedulerClock = SystemSchedulerClock(),
                 output: Int32 = -1) throws -> ScheduleCommand {
        let parsed = try ArgumentParser.parse(["--config", configPath] + arguments, spec: ScheduleCommand.spec)
        return ScheduleCommand(arguments: parsed, logger: .silent, runner: runner, clock: clock, randomUnit: { 0.5 }, output: output)
    }
}

@Suite struct SchedulePrintTests {
    @Test func printSystemdForOneSite() async throws {
        let fixture = try ScheduleFixture()
        let out = try CapturedOutput()
        let command = try fixture.command(["--site", "intranet", "--print-systemd", "--user", "mirror", "--executable", "/usr/local/bin/mtls-mirror",
                                           "--credential", "/etc/mtls-mirror/p12.pass"], output: out.descriptor)
        #expect(try await command.run() == .success)
        let text = out.text
        #expect(text.hasPrefix("# ---- mtls-mirror-refresh-intranet.service ----\n"))
        #expect(text.contains("ExecStart=/usr/local/bin/mtls-mirror refresh --config \(fixture.configPath) intranet\n"))
        #expect(text.contains("User=mirror\n"))
        #expect(text.contains("ReadWritePaths=\(fixture.output)\n"))
        #expect(text.contains("LoadCredential=p12-password:/etc/mtls-mirror/p12.pass\n"))
        #expect(text.contains("# ---- mtls-mirror-refresh-intranet.timer ----\n"))
        #expect(text.contains("OnUnitActiveSec=6h\nRandomizedDelaySec=10min\n"))
        #expect(!text.contains("odd"))
    }

    @Test func printSystemdForAllScheduledSitesSkipsManualOnes() async throws {
        let fixture = try ScheduleFixture()
        let out = try CapturedOutput()
        #expect(try await fixture.command(["--print-systemd"], output: out.descriptor).run() == .success)
        #expect(out.text.contains("mtls-mirror-refresh-intranet.timer"))
        #expect(out.text.contains("mtls-mirror-refresh-odd.timer"))
        #expect(out.text.contains("OnUnitActiveSec=5h\n"))
        #expect(!out.text.contains("manual"))
        #expect(out.text.contains("User=\(ScheduleCommand.currentUser)\n"))
    }

    @Test func printCron() async throws {
        let fixture = try ScheduleFixture()
        let out = try CapturedOutput()
        #expect(try await fixture.command(["--site", "intranet", "--print-cron", "--executable", "/usr/bin/mtls-mirror"], output: out.descriptor).run() == .success)
        let lines = out.text.split(separator: "\n")
        #expect(lines.last == "0 */6 * * * cd \(FileManager.default.currentDirectoryPath) && /usr/bin/mtls-mirror refresh --config \(fixture.configPath) intranet --quiet")
        #expect(lines.filter { !$0.hasPrefix("#") }.count == 1)
    }

    @Test func cronRefusesAFiveHourInterval() async throws {
        let fixture = try ScheduleFixture()
        await #expect(throws: UnitFileError.cronCannotExpress(site: "odd", every: 5 * 3600)) {
            try await fixture.command(["--print-cron"]).run()
        }
    }

    @Test(arguments: [
        ["--site", "manual", "--print-systemd"],
        ["--print-systemd", "--print-cron"],
        ["--print-cron", "-o", "/tmp/x"],
        ["--print-systemd", "--credential", "/a", "--environment-file", "/b"],
        ["--site", "nope", "--print-cron"],
        ["positional"],
    ])
    func refusals(arguments: [String]) async throws {
        let fixture = try ScheduleFixture()
        await #expect(throws: (any Error).self) { try await fixture.command(arguments).run() }
    }

    @Test func aManualSiteNamedForUnitsExplainsWhy() async throws {
        let fixture = try ScheduleFixture()
        await #expect(throws: UnitFileError.noInterval(site: "manual")) {
            try await fixture.command(["--site", "manual", "--print-systemd"]).run()
        }
    }
}

/// A clock whose sleeps return at once, jumping to the deadline.
final class InstantClock: SchedulerClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    func now() -> Date { lock.withLock { current } }
    func advance(_ seconds: Double) { lock.withLock { current = current.addingTimeInterval(seconds) } }
    func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        lock.withLock { if deadline > current { current = deadline } }
    }
}

/// Runs (site, time) recorded by a fake refresh.
final class RunLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(String, Date)] = []
    func add(_ site: String, _ at: Date) -> Int { lock.withLock { entries.append((site, at)); return entries.count } }
    var all: [(String, Date)] { lock.withLock { entries } }
}

/// Everything that installs SIGINT/SIGTERM handling runs one at a time.
@Suite(.serialized) struct ScheduleForegroundTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func onceRunsEachSelectedSiteAndReportsFailures() async throws {
        let fixture = try ScheduleFixture()
        let clock = InstantClock(Self.start)
        let log = RunLog()
        let runner = RefreshRunner { site in
            _ = log.add(site, clock.now())
            clock.advance(120)
            return site == "odd" ? .network : .success
        }
        let code = try await fixture.command(["--once"], runner: runner, clock: clock).run()
        #expect(code == .partial)
        // One at a time, in config order; --once includes the on-demand site.
        #expect(log.all.map(\.0) == ["intranet", "odd", "manual"])
        #expect(log.all.map(\.1) == [Self.start, Self.start.addingTimeInterval(120), Self.start.addingTimeInterval(240)])
        let allGood = try await fixture.command(["--once", "--site", "intranet"], runner: RefreshRunner { _ in .success }, clock: clock).run()
        #expect(allGood == .success)
    }

    @Test func foregroundHonoursHistoryIntervalsAndStopsOnSIGTERM() async throws {
        let fixture = try ScheduleFixture()
        // intranet ran 1 h ago: its next run is due 6 h + 5 min (half the jitter) after that.
        let history = RunHistory(siteDirectory: fixture.output + "/intranet")
        try FileManager.default.createDirectory(atPath: fixture.output + "/intranet", withIntermediateDirectories: true)
        try history.append(RunRecord(site: "intranet", startedAt: Self.start.addingTimeInterval(-3600),
                                     finishedAt: Self.start.addingTimeInterval(-3500), outcome: .success, exitCode: 0))
        let clock = InstantClock(Self.start)
        let log = RunLog()
        let runner = RefreshRunner { site in
            let count = log.add(site, clock.now())
            clock.advance(60)
            if count == 4 {
                // A real signal during a run, handled by the command; the run goes on a moment
                // (signal delivery is asynchronous), and no later run may start.
                kill(getpid(), SIGTERM)
                try? await Task.sleep(nanoseconds: 300_000_000)
            }
            return count == 2 ? .network : .success
        }
        let code = try await fixture.command(["--site", "intranet", "--site", "odd"], runner: runner, clock: clock).run()
        #expect(code == .success)  // SIGTERM: a clean stop
        let runs = log.all
        #expect(runs.count == 4)
        // odd has no history: at once. intranet: 1 h ago + 6 h 5 min. A failed odd run (count 2)
        // waits a full slot of 5 h.
        #expect(runs[0].0 == "odd" && runs[0].1 == Self.start)
        #expect(runs.contains { $0.0 == "intranet" && $0.1 == Self.start.addingTimeInterval(-3600 + 6 * 3600 + 300) })
        let oddTimes = runs.filter { $0.0 == "odd" }.map(\.1)
        #expect(oddTimes.count >= 2)
        #expect(oddTimes[1] == Self.start.addingTimeInterval(5 * 3600))
    }

    @Test func theSignalForwarderDeliversEverySignalAcrossForwarders() async throws {
        for number in [SIGINT, SIGTERM, SIGINT] {
            let received = RunLog()
            let forwarder = SignalForwarder { number in _ = received.add(String(number), Date()) }
            kill(getpid(), number)
            for _ in 0..<200 where received.all.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
            forwarder.cancel()
            #expect(received.all.map(\.0) == [String(number)])
        }
    }

    @Test func noScheduledSiteIsAUsageError() async throws {
        let fixture = try ScheduleFixture()
        await #expect(throws: UsageError.self) {
            try await fixture.command(["--site", "manual"], runner: RefreshRunner { _ in .success }, clock: InstantClock(Self.start)).run()
        }
    }
}

@Suite(.serialized) struct RefreshRunnerTests {
    /// A stand-in for `mtls-mirror`: records its arguments, its input and its signal state.
    func fakeExecutable(in folder: TemporaryDirectory, exit code: String) throws -> String {
        let path = folder.path + "/fake-mtls-mirror"
        try Data("""
            #!/bin/sh
            printf '%s\\n' "$@" > "\(folder.path)/args"
            grep -E '^Sig(Ign|Blk):' /proc/self/status > "\(folder.path)/signals"
            readlink /proc/$$/fd/0 > "\(folder.path)/stdin"
            \(code)
            """.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o700)
        return path
    }

    @Test func runsTheRefreshAsAChildWithDefaultSignalsAndNoInput() async throws {
        let folder = try TemporaryDirectory(prefix: "runner")
        let runner = RefreshRunner.childProcess(executable: try fakeExecutable(in: folder, exit: "exit 10"), configPath: "/etc/c.json",
                                                outputRoot: "/srv/out", logger: Logger(minimumLevel: .warning, format: .json, fileDescriptor: -1))
        // As in `schedule`: SIGINT and SIGTERM are handled by the parent while the child runs.
        let forwarder = SignalForwarder { _ in }
        let code = await runner.run("intranet")
        forwarder.cancel()
        #expect(code == .partial)
        let args = try String(contentsOfFile: folder.path + "/args", encoding: .utf8)
        #expect(args == "--log-format\njson\n--quiet\nrefresh\n--config\n/etc/c.json\n-o\n/srv/out\nintranet\n")
        // Standard input is /dev/null: a refresh never waits for a terminal.
        #expect(try String(contentsOfFile: folder.path + "/stdin", encoding: .utf8) == "/dev/null\n")
        // The child must not inherit an ignored or blocked SIGINT (bit 2) / SIGTERM (bit 15).
        let signals = try String(contentsOfFile: folder.path + "/signals", encoding: .utf8)
        for line in signals.split(separator: "\n") {
            let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16) ?? .max
            #expect(mask & (1 << 1) == 0, "\(line)")
            #expect(mask & (1 << 14) == 0, "\(line)")
        }
    }

    @Test(arguments: [("exit 0", ExitCode.success), ("exit 7", .network), ("exit 42", .internalError),
                      ("kill -TERM $$", .interrupted), ("kill -SEGV $$", .internalError)])
    func exitStatusesMap(script: String, expected: ExitCode) async throws {
        let folder = try TemporaryDirectory(prefix: "runner")
        let runner = RefreshRunner.childProcess(executable: try fakeExecutable(in: folder, exit: script), configPath: "/c.json",
                                                outputRoot: nil, logger: .silent)
        #expect(await runner.run("s") == expected)
    }

    @Test func aMissingExecutableIsAnInternalError() async {
        let runner = RefreshRunner.childProcess(executable: "/nonexistent/mtls-mirror", configPath: "/c.json", outputRoot: nil, logger: .silent)
        #expect(await runner.run("s") == .internalError)
    }
}
