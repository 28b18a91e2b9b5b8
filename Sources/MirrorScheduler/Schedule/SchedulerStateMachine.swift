import Foundation

/// The refresh scheduler's logic, free of I/O: which site to start when, and when to stop.
///
/// The shell around it (``SchedulerLoop``) feeds it events with the current time and carries
/// out the actions it returns:
///
/// | Input                              | Effect                                                     |
/// |------------------------------------|------------------------------------------------------------|
/// | ``tick(now:)``                     | starts every idle site that is due                         |
/// | ``runStarted(site:now:)``          | records the real start time (slots count from it)          |
/// | ``runFinished(site:outcome:now:)`` | schedules the site's next run, or exits when stopping      |
/// | ``signalReceived(now:)``           | no new runs; exits once the running ones have finished     |
///
/// Every input that can lead somewhere returns actions: zero or more ``Action/startRun(site:)``,
/// then either one ``Action/sleep(until:)`` (wake at that time, or earlier when a run finishes
/// or a signal arrives; `Date.distantFuture` means "until an event") or ``Action/exit``.
///
/// Guarantees: a site never has two runs at once (a due site that is still running waits for
/// it); a failed run is retried at the next slot, not at once (or sooner with
/// ``RefreshSchedule/failureBackoff``, capped at `every`); after a signal nothing starts.
public struct SchedulerStateMachine: Sendable {
    /// What the shell should do.
    public enum Action: Sendable, Equatable {
        /// Start a refresh of this site now (then report ``runStarted(site:now:)``).
        case startRun(site: String)
        /// Sleep until this time, or until a run finishes or a signal arrives.
        case sleep(until: Date)
        /// Nothing is running and nothing will start: leave.
        case exit
    }

    /// One site's state.
    public enum SiteState: Sendable, Equatable {
        /// Waiting for its next run at `due`.
        case idle(due: Date)
        /// A run was asked for (``Action/startRun(site:)``) or started at `since`.
        case running(since: Date)
        /// Done for good (`once` mode after its run).
        case finished
    }

    private struct Site: Sendable {
        var schedule: RefreshSchedule
        var state: SiteState
        var consecutiveFailures = 0
    }

    private var sites: [String: Site] = [:]
    private let order: [String]
    private var stopping = false
    private let once: Bool
    private let maximumConcurrentRuns: Int
    private let randomUnit: @Sendable () -> Double

    /// Creates the machine.
    /// - Parameters:
    ///   - sites: each site's name and schedule, in the order runs are started when several are
    ///     due together.
    ///   - lastStarts: when each site's last run started (from its run history); a site with a
    ///     known last start is first due a slot after it (or at once if that slot has passed),
    ///     a site without one is due at `now`.
    ///   - now: the current time.
    ///   - once: run every site once, then exit (`schedule --once`).
    ///   - maximumConcurrentRuns: runs of different sites at the same time (default 1: a due
    ///     site waits for the running one, in site order).
    ///   - randomUnit: the random source for jitter, returning values in 0…1.
    public init(sites: [(name: String, schedule: RefreshSchedule)], lastStarts: [String: Date] = [:], now: Date,
                once: Bool = false, maximumConcurrentRuns: Int = 1, randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.randomUnit = randomUnit
        self.once = once
        self.maximumConcurrentRuns = max(1, maximumConcurrentRuns)
        var order: [String] = []
        for (name, schedule) in sites where self.sites[name] == nil {
            order.append(name)
            var due = now
            if !once, let last = lastStarts[name] {
                due = min(now, last).addingTimeInterval(schedule.every + schedule.jitter * Self.clamp(randomUnit()))
                if due < now { due = now }
            }
            self.sites[name] = Site(schedule: schedule, state: .idle(due: due))
        }
        self.order = order
    }

    /// The state of a site, or `nil` for an unknown one.
    public func state(of site: String) -> SiteState? { sites[site]?.state }

    /// Whether a signal was received.
    public var isStopping: Bool { stopping }

    /// The clock advanced: start the sites that are due.
    /// - Parameter now: the current time.
    /// - Returns: starts, then a sleep or exit.
    public mutating func tick(now: Date) -> [Action] {
        var actions: [Action] = []
        if !stopping {
            var running = sites.values.filter { if case .running = $0.state { true } else { false } }.count
            for name in order where running < maximumConcurrentRuns {
                guard var site = sites[name], case .idle(let due) = site.state, due <= now else { continue }
                site.state = .running(since: now)
                sites[name] = site
                actions.append(.startRun(site: name))
                running += 1
            }
        }
        actions.append(waitOrExit())
        return actions
    }

    /// The shell started a run: its start time is where the next slot is counted from.
    /// - Parameters:
    ///   - site: the site.
    ///   - now: the start time.
    public mutating func runStarted(site name: String, now: Date) {
        guard var site = sites[name], case .running = site.state else { return }
        site.state = .running(since: now)
        sites[name] = site
    }

    /// A run ended: plan the site's next one.
    /// - Parameters:
    ///   - site: the site.
    ///   - outcome: how it ended.
    ///   - now: when it ended.
    /// - Returns: starts of other due sites, then a sleep or exit.
    public mutating func runFinished(site name: String, outcome: RunOutcome, now: Date) -> [Action] {
        if var site = sites[name], case .running(let since) = site.state {
            site.consecutiveFailures = outcome == .failed ? site.consecutiveFailures + 1 : 0
            if once {
                site.state = .finished
            } else {
                site.state = .idle(due: site.schedule.nextRun(afterStart: since, finish: now,
                                                              consecutiveFailures: site.consecutiveFailures,
                                                              randomUnit: Self.clamp(randomUnit())))
            }
            sites[name] = site
        }
        return tick(now: now)
    }

    /// SIGINT or SIGTERM arrived: start nothing more, and exit once running runs finish.
    /// - Parameter now: the current time.
    /// - Returns: ``Action/exit`` when nothing runs, else a sleep until an event.
    public mutating func signalReceived(now: Date) -> [Action] {
        stopping = true
        return [waitOrExit()]
    }

    private func waitOrExit() -> Action {
        var running = 0
        var earliest: Date?
        for site in sites.values {
            switch site.state {
            case .running: running += 1
            case .idle(let due): earliest = min(earliest ?? due, due)
            case .finished: break
            }
        }
        guard !stopping, let earliest else {
            return running > 0 ? .sleep(until: .distantFuture) : .exit
        }
        // At the limit only a finishing run can change anything; a due site waits for it.
        return running >= maximumConcurrentRuns ? .sleep(until: .distantFuture) : .sleep(until: earliest)
    }

    private static func clamp(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }
}
