import Foundation
import Testing
@testable import MirrorScheduler

let t0 = Date(timeIntervalSince1970: 1_800_000_000)
func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

@Suite struct RefreshScheduleTests {
    struct Case: Sendable, CustomStringConvertible {
        var every: Double, jitter: Double, backoff: Double?
        var start: Double, finish: Double, failures: Int, random: Double
        var expected: Double
        var description: String { "every \(every) start \(start) finish \(finish) failures \(failures) → \(expected)" }
    }

    @Test(arguments: [
        // A quick run: next slot is start + every.
        Case(every: 3600, jitter: 0, backoff: nil, start: 0, finish: 60, failures: 0, random: 0.5, expected: 3600),
        // Jitter scales with the random unit.
        Case(every: 3600, jitter: 600, backoff: nil, start: 0, finish: 60, failures: 0, random: 0.5, expected: 3900),
        Case(every: 3600, jitter: 600, backoff: nil, start: 0, finish: 60, failures: 0, random: 1, expected: 4200),
        // An overrun skips missed slots instead of starting again at once.
        Case(every: 3600, jitter: 0, backoff: nil, start: 0, finish: 7300, failures: 0, random: 0, expected: 10800),
        // A failure waits for the next slot without backoff...
        Case(every: 3600, jitter: 0, backoff: nil, start: 0, finish: 10, failures: 1, random: 0, expected: 3600),
        // ...and with backoff retries sooner: base, then doubled, capped at every.
        Case(every: 3600, jitter: 0, backoff: 300, start: 0, finish: 10, failures: 1, random: 0, expected: 310),
        Case(every: 3600, jitter: 0, backoff: 300, start: 0, finish: 10, failures: 2, random: 0, expected: 610),
        Case(every: 3600, jitter: 0, backoff: 300, start: 0, finish: 10, failures: 9, random: 0, expected: 3600),
        // A success ignores the backoff.
        Case(every: 3600, jitter: 0, backoff: 300, start: 0, finish: 10, failures: 0, random: 0, expected: 3600),
    ])
    func nextRun(_ c: Case) {
        let schedule = RefreshSchedule(every: c.every, jitter: c.jitter, failureBackoff: c.backoff)
        let due = schedule.nextRun(afterStart: at(c.start), finish: at(c.finish), consecutiveFailures: c.failures, randomUnit: c.random)
        #expect(due == at(c.expected))
    }

    @Test func valuesAreClamped() {
        let schedule = RefreshSchedule(every: -5, jitter: -1, failureBackoff: -3)
        #expect(schedule.every == 1)
        #expect(schedule.jitter == 0)
        #expect(schedule.failureBackoff == 0)
    }
}

@Suite struct SchedulerStateMachineTests {
    typealias Action = SchedulerStateMachine.Action
    static let hourly = RefreshSchedule(every: 3600, jitter: 600)

    /// One scripted input at a time (seconds after t0).
    enum Input: Sendable {
        case tick(Double)
        case started(String, Double)
        case finished(String, RunOutcome, Double)
        case signal(Double)
    }

    struct Step: Sendable {
        var input: Input
        var expected: [Action]
        init(_ input: Input, _ expected: [Action]) { self.input = input; self.expected = expected }
    }

    struct Script: Sendable, CustomStringConvertible {
        var name: String
        var sites: [String]
        var lastStarts: [String: Double] = [:]
        var once = false
        var concurrent = 1
        var steps: [Step]
        var description: String { name }
    }

    static let scripts: [Script] = [
        Script(name: "first run at once, next after every + jitter", sites: ["a"], steps: [
            Step(.tick(0), [.startRun(site: "a"), .sleep(until: .distantFuture)]),
            Step(.started("a", 1), []),
            Step(.tick(500), [.sleep(until: .distantFuture)]),  // running: never a second run
            Step(.finished("a", .success, 100), [.sleep(until: at(1 + 3600 + 300))]),
            Step(.tick(2000), [.sleep(until: at(3901))]),       // early wake: nothing due
            Step(.tick(3901), [.startRun(site: "a"), .sleep(until: .distantFuture)]),
        ]),
        Script(name: "a failed run waits for the next slot", sites: ["a"], steps: [
            Step(.tick(0), [.startRun(site: "a"), .sleep(until: .distantFuture)]),
            Step(.started("a", 0), []),
            Step(.finished("a", .failed, 5), [.sleep(until: at(3900))]),
            Step(.tick(5), [.sleep(until: at(3900))]),
        ]),
        Script(name: "last start from history delays the first run", sites: ["a"], lastStarts: ["a": -600], steps: [
            Step(.tick(0), [.sleep(until: at(-600 + 3600 + 300))]),
        ]),
        Script(name: "an overdue site from history runs at once", sites: ["a"], lastStarts: ["a": -90000], steps: [
            Step(.tick(0), [.startRun(site: "a"), .sleep(until: .distantFuture)]),
        ]),
        Script(name: "signal while running: no new run, exit after it ends", sites: ["a", "b"], steps: [
            Step(.tick(0), [.startRun(site: "a"), .sleep(until: .distantFuture)]),
            Step(.started("a", 0), []),
            Step(.signal(10), [.sleep(until: .distantFuture)]),
            Step(.tick(20), [.sleep(until: .distantFuture)]),    // b is due but must not start
            Step(.finished("a", .success, 30), [.exit]),
        ]),
        Script(name: "signal while idle exits at once", sites: ["a"], lastStarts: ["a": -10], steps: [
            Step(.signal(0), [.exit]),
            Step(.tick(100_000), [.exit]),
        ]),
        Script(name: "one run at a time: b waits for a", sites: ["a", "b"], steps: [
            Step(.tick(0), [.startRun(site: "a"), .sleep(until: .distantFuture)]),
            Step(.started("a", 0), []),
            Step(.finished("a", .partial, 50), [.startRun(site: "b"), .sleep(until: .distantFuture)]),
            Step(.started("b", 50), []),
            Step(.finished("b", .success, 80), [.sleep(until: at(3900))]),
        ]),
        Script(name: "two at a time when allowed", sites: ["a", "b", "c"], concurrent: 2, steps: [
            Step(.tick(0), [.startRun(site: "a"), .startRun(site: "b"), .sleep(until: .distantFuture)]),
            Step(.finished("b", .success, 10), [.startRun(site: "c"), .sleep(until: .distantFuture)]),
        ]),
        Script(name: "once: every site once, then exit", sites: ["a", "b"], lastStarts: ["a": -10], once: true, steps: [
            Step(.tick(0), [.startRun(site: "a"), .sleep(until: .distantFuture)]),
            Step(.finished("a", .failed, 10), [.startRun(site: "b"), .sleep(until: .distantFuture)]),
            Step(.finished("b", .success, 20), [.exit]),
        ]),
        Script(name: "an unknown site's end changes nothing", sites: ["a"], lastStarts: ["a": 0], steps: [
            Step(.finished("zzz", .success, 10), [.sleep(until: at(3900))]),
        ]),
    ]

    @Test(arguments: scripts)
    func script(_ script: Script) {
        var machine = SchedulerStateMachine(
            sites: script.sites.map { ($0, Self.hourly) }, lastStarts: script.lastStarts.mapValues(at), now: at(0),
            once: script.once, maximumConcurrentRuns: script.concurrent, randomUnit: { 0.5 })
        for (index, step) in script.steps.enumerated() {
            let actions: [Action]
            switch step.input {
            case .tick(let time): actions = machine.tick(now: at(time))
            case .started(let site, let time): machine.runStarted(site: site, now: at(time)); actions = []
            case .finished(let site, let outcome, let time): actions = machine.runFinished(site: site, outcome: outcome, now: at(time))
            case .signal(let time): actions = machine.signalReceived(now: at(time))
            }
            #expect(actions == step.expected, "step \(index) of \(script.name)")
        }
    }

    @Test func statesAreReported() {
        var machine = SchedulerStateMachine(sites: [("a", Self.hourly)], now: at(0), randomUnit: { 0 })
        #expect(machine.state(of: "a") == .idle(due: at(0)))
        _ = machine.tick(now: at(0))
        #expect(machine.state(of: "a") == .running(since: at(0)))
        _ = machine.runFinished(site: "a", outcome: .success, now: at(9))
        #expect(machine.state(of: "a") == .idle(due: at(3600)))
        #expect(machine.state(of: "nope") == nil)
        #expect(!machine.isStopping)
        _ = machine.signalReceived(now: at(10))
        #expect(machine.isStopping)
    }

    @Test(arguments: [(Int32(0), RunOutcome.success), (10, .partial), (1, .failed), (4, .failed), (130, .failed)])
    func outcomeFromExitStatus(status: Int32, outcome: RunOutcome) {
        #expect(RunOutcome(exitStatus: status) == outcome)
    }
}
