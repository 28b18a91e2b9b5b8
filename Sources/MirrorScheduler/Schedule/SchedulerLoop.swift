import Foundation
import MirrorCore

/// The thin I/O shell around ``SchedulerStateMachine``: sleeps, starts runs, collects their
/// ends and stop requests, and carries out what the machine decides.
///
/// Each run is `runner(site)`, returning the run's exit status (the CLI's runner starts a
/// child process per run, so a crashing run cannot take the scheduler down). A failed run is
/// logged and scheduled again like any other. ``stop(signal:)`` (from a signal handler) stops
/// new runs; ``run()`` returns once the running ones have finished.
public final class SchedulerLoop: Sendable {
    /// Runs one site's refresh and returns its exit status.
    public typealias Runner = @Sendable (_ site: String) async -> Int32

    /// How the loop ended.
    public enum Ending: Sendable, Equatable {
        /// Every site ran once (`once` mode) or no site has a schedule.
        case finished
        /// A stop was requested with this signal number; running runs were waited for.
        case stopped(signal: Int32)
    }

    private enum Event: Sendable {
        case wake
        case finished(site: String, status: Int32, startedAt: Date)
        case stop(signal: Int32)
    }

    private let initialMachine: SchedulerStateMachine
    private let clock: any SchedulerClock
    private let runner: Runner
    private let logger: Logger
    private let outputRoot: String?
    private let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    /// Creates the loop.
    /// - Parameters:
    ///   - machine: the state machine, with the sites and their schedules.
    ///   - clock: the time source.
    ///   - outputRoot: when given, each run's summary line is read from
    ///     `<outputRoot>/<site>/history.jsonl` (written by `refresh`).
    ///   - logger: where one summary line per run goes.
    ///   - runner: runs one refresh.
    public init(machine: SchedulerStateMachine, clock: any SchedulerClock = SystemSchedulerClock(), outputRoot: String? = nil,
                logger: Logger, runner: @escaping Runner) {
        self.initialMachine = machine
        self.clock = clock
        self.runner = runner
        self.logger = logger
        self.outputRoot = outputRoot
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Asks the loop to start nothing more and to return once running runs finish. Safe to call
    /// from any thread (a signal source's handler).
    /// - Parameter signal: the signal that asked (`SIGTERM`, `SIGINT`), reported by ``run()``.
    public func stop(signal: Int32) {
        continuation.yield(.stop(signal: signal))
    }

    /// Runs until the machine exits. Call it once.
    /// - Returns: how it ended.
    public func run() async -> Ending {
        var machine = initialMachine
        var stopSignal: Int32?
        var sleeper: Task<Void, Never>?
        var iterator = events.makeAsyncIterator()
        var actions = machine.tick(now: clock.now())
        while true {
            var wakeAt: Date?
            for action in actions {
                switch action {
                case .startRun(let site):
                    let started = clock.now()
                    machine.runStarted(site: site, now: started)
                    logger.info("\(site): refresh started")
                    let runner = self.runner
                    let continuation = self.continuation
                    Task {
                        let status = await runner(site)
                        continuation.yield(.finished(site: site, status: status, startedAt: started))
                    }
                case .sleep(let until):
                    wakeAt = until
                case .exit:
                    sleeper?.cancel()
                    return stopSignal.map { .stopped(signal: $0) } ?? .finished
                }
            }
            sleeper?.cancel()
            sleeper = nil
            if let wakeAt, wakeAt != .distantFuture {
                let clock = self.clock
                let continuation = self.continuation
                sleeper = Task {
                    do {
                        try await clock.sleep(until: wakeAt)
                        continuation.yield(.wake)
                    } catch {
                        // Cancelled: an event came first.
                    }
                }
            }
            guard let event = await iterator.next() else { return .finished }
            switch event {
            case .wake:
                actions = machine.tick(now: clock.now())
            case .stop(let signal):
                if stopSignal == nil {
                    stopSignal = signal
                    logger.info("stop requested (signal \(signal)): no new runs; waiting for running ones to finish")
                }
                actions = machine.signalReceived(now: clock.now())
            case .finished(let site, let status, let startedAt):
                let now = clock.now()
                actions = machine.runFinished(site: site, outcome: RunOutcome(exitStatus: status), now: now)
                logFinish(site: site, status: status, startedAt: startedAt, now: now, next: machine.state(of: site))
            }
        }
    }

    private func logFinish(site: String, status: Int32, startedAt: Date, now: Date, next: SchedulerStateMachine.SiteState?) {
        var line: String
        if let outputRoot, let record = RunHistory(siteDirectory: outputRoot + "/" + site).load(last: 1).last,
           record.startedAt >= startedAt.addingTimeInterval(-1) {
            line = record.summaryLine
        } else {
            line = "\(site): \(RunOutcome(exitStatus: status).rawValue) (exit \(status)) in "
                + NumberText.fixed(now.timeIntervalSince(startedAt), fractionDigits: 1) + " s"
        }
        if case .idle(let due) = next {
            line += "; next run at " + UTCTime.iso8601(due)
        }
        if status == 0 || status == 10 { logger.info(line) } else { logger.warning(line) }
    }
}
