import Foundation
import MirrorCore
import MirrorTestSupport
import Testing
@testable import MirrorScheduler

/// A clock whose sleeps return at once, moving time forward to the deadline.
final class JumpingClock: SchedulerClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    func now() -> Date { lock.withLock { current } }
    func advance(by seconds: Double) { lock.withLock { current = current.addingTimeInterval(seconds) } }
    func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        lock.withLock { if deadline > current { current = deadline } }
    }
}

/// Records runs; each takes `duration` seconds of clock time and returns the next scripted status.
final class FakeRunner: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int32]
    private(set) var runs: [(site: String, at: Date)] = []
    let clock: JumpingClock
    let duration: Double
    var onRun: (@Sendable (Int) -> Void)?

    init(clock: JumpingClock, statuses: [Int32], duration: Double = 60) {
        self.clock = clock
        self.statuses = statuses
        self.duration = duration
    }

    func run(_ site: String) async -> Int32 {
        let (count, status): (Int, Int32) = lock.withLock {
            runs.append((site, clock.now()))
            return (runs.count, statuses.isEmpty ? 0 : statuses.removeFirst())
        }
        clock.advance(by: duration)
        onRun?(count)
        return status
    }

    var recorded: [(site: String, at: Date)] { lock.withLock { runs } }
}

@Suite struct SchedulerLoopTests {
    @Test func runsOnScheduleSurvivesFailuresAndStopsOnSignal() async {
        let clock = JumpingClock(t0)
        let fake = FakeRunner(clock: clock, statuses: [0, 7, 1, 10, 0])
        let machine = SchedulerStateMachine(sites: [("a", RefreshSchedule(every: 3600, jitter: 600))], now: t0, randomUnit: { 0.5 })
        let box = LoopBox()
        fake.onRun = { count in if count == 5 { box.value?.stop(signal: SIGTERM) } }
        let loop = SchedulerLoop(machine: machine, clock: clock, logger: .silent) { await fake.run($0) }
        box.value = loop
        let ending = await loop.run()
        #expect(ending == .stopped(signal: SIGTERM))
        let runs = fake.recorded
        #expect(runs.count == 5)
        // Every 3600 s + 300 s of jitter after the previous start; failures (7, 1) did not stop it.
        #expect(runs.map(\.at) == (0..<5).map { at(Double($0) * 3900) })
        #expect(runs.allSatisfy { $0.site == "a" })
    }

    @Test func onceRunsEachSiteOnceInOrder() async {
        let clock = JumpingClock(t0)
        let fake = FakeRunner(clock: clock, statuses: [4, 0])
        let machine = SchedulerStateMachine(sites: [("a", RefreshSchedule(every: 60)), ("b", RefreshSchedule(every: 60))],
                                            now: t0, once: true)
        let loop = SchedulerLoop(machine: machine, clock: clock, logger: .silent) { await fake.run($0) }
        #expect(await loop.run() == .finished)
        #expect(fake.recorded.map(\.site) == ["a", "b"])
        #expect(fake.recorded.map(\.at) == [at(0), at(60)])
    }

    @Test func aStopBeforeAnyRunExitsWithoutRunning() async {
        let clock = JumpingClock(t0)
        let fake = FakeRunner(clock: clock, statuses: [])
        let machine = SchedulerStateMachine(sites: [("a", RefreshSchedule(every: 3600))], lastStarts: ["a": t0], now: t0)
        let loop = SchedulerLoop(machine: machine, clock: SlowClock(t0), logger: .silent) { await fake.run($0) }
        loop.stop(signal: SIGINT)
        #expect(await loop.run() == .stopped(signal: SIGINT))
        #expect(fake.recorded.isEmpty)
    }

    @Test func theSummaryLineComesFromTheRunHistory() async throws {
        let output = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: output.path + "/a", withIntermediateDirectories: true)
        let clock = JumpingClock(t0)
        let logFile = output.path + "/log.txt"
        let fd = open(logFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let logger = Logger(minimumLevel: .info, format: .text, fileDescriptor: fd)
        let machine = SchedulerStateMachine(sites: [("a", RefreshSchedule(every: 3600))], now: t0, once: true)
        let loop = SchedulerLoop(machine: machine, clock: clock, outputRoot: output.path, logger: logger) { site in
            let record = RunRecord(site: site, startedAt: clock.now(), finishedAt: clock.now().addingTimeInterval(12),
                                   outcome: .partial, exitCode: 10, counts: .init(added: 1, failed: 2), bytes: 10, snapshot: "S1")
            try? RunHistory(siteDirectory: output.path + "/" + site).append(record)
            return 10
        }
        #expect(await loop.run() == .finished)
        close(fd)
        let log = try String(contentsOfFile: logFile, encoding: .utf8)
        #expect(log.contains("a: refresh started"))
        #expect(log.contains("a: partial (exit 10) in 12.0 s, +1 ~0 -0 =0 !2"))
        #expect(log.contains("snapshot S1"))
    }
}

/// Lets a runner reach the loop that runs it.
final class LoopBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: SchedulerLoop?
    var value: SchedulerLoop? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A clock that really waits (used where no sleep may end early).
struct SlowClock: SchedulerClock {
    let start: Date
    init(_ start: Date) { self.start = start }
    func now() -> Date { start }
    func sleep(until deadline: Date) async throws { try await Task.sleep(nanoseconds: 60_000_000_000) }
}
