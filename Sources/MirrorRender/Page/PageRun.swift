/// One page being rendered in one tab: what has happened so far, and when it is done.
///
/// A value owned by ``BrowserMachine``; its methods decide, they do no I/O. Times are
/// seconds on the monotonic clock the machine is fed.
struct PageRun: Sendable, Equatable {
    let job: Int
    let url: String
    /// 1 for the first try, 2 after a crash or a page that could not be read.
    let attempt: Int
    /// Unique per run: replies and answers for an earlier page of the same tab carry another.
    let generation: Int
    let started: Double
    let budget: PageBudget

    /// The loader of the page's navigation (from `Page.navigate`'s reply).
    var loaderID: String?
    /// Loaders whose `load` lifecycle event arrived (it may come before the reply).
    var loadedLoaders: Set<String> = []
    var loaded = false
    /// The page's own document request has been paused (later main-frame documents are
    /// navigations by script).
    var documentSeen = false
    /// Requests paused and handed to the handler, not answered yet.
    var outstanding: [String: PausedRequest] = [:]
    var lastActivity: Double
    var requestCount = 0
    var bodyBytes: Int64 = 0
    var budgetCut: RenderedPage.BudgetLimit?
    var navigations: [String] = []
    /// Whether the settle script (lazy images, scrolling) has run.
    var settled = false
    /// Requests made when the settle script ran: if none come after it, the page is done after
    /// ``settleWindow`` instead of a whole quiet period.
    var requestsAtSettle = 0

    /// How long a page that the settle script did not make ask for anything waits before its
    /// DOM is read.
    static let settleWindow = 0.05
    /// The page's own clock (``PageBudget/timers``), for the stage it is in.
    var clock: PageClock = .real

    /// 0: the DOM has not been asked for; 1: asked; 2: asked again after stopping scripts.
    var captureAttempt = 0
    var captureDeadline: Double?

    init(job: Int, url: String, attempt: Int, generation: Int, now: Double, budget: PageBudget) {
        self.job = job
        self.url = url
        self.attempt = attempt
        self.generation = generation
        self.started = now
        self.budget = budget
        lastActivity = now
    }

    /// What the page needs next, judged at `now`.
    enum Step: Equatable {
        case wait
        /// Quiet after load: run the settle script, then wait for quiet again.
        case settle
        /// Read the DOM: quiet again after settling, or (`timeUp`) out of time.
        case capture(timeUp: Bool)
        /// The DOM was asked for and did not come: stop the page's scripts and ask again.
        case stopScriptsAndCaptureAgain
        /// Asked twice without an answer: the page cannot be read.
        case unresponsive
    }

    func step(now: Double) -> Step {
        if let captureDeadline {
            guard now >= captureDeadline else { return .wait }
            return captureAttempt >= 2 ? .unresponsive : .stopScriptsAndCaptureAgain
        }
        let quiet = loaded && outstanding.isEmpty && (clock == .expired || now - lastActivity >= quietPeriod)
        if now >= started + budget.time { return .capture(timeUp: !(quiet && settled)) }
        guard quiet else { return .wait }
        return settled ? .capture(timeUp: false) : .settle
    }

    /// The quiet that ends the current stage: the budget's before the settle script, and after
    /// it too once the script made the page ask for more; otherwise ``settleWindow``.
    var quietPeriod: Double {
        settled && requestCount == requestsAtSettle ? min(budget.quiet, Self.settleWindow) : budget.quiet
    }

    /// The next moment ``step(now:)`` may answer something else than `.wait`.
    func deadline(now: Double) -> Double {
        if let captureDeadline { return captureDeadline }
        var next = started + budget.time
        if loaded, outstanding.isEmpty { next = min(next, clock == .expired ? now : lastActivity + quietPeriod) }
        return next
    }

    /// The budget left for response bodies.
    var bytesLeft: Int64 { max(0, budget.maximumBytes - bodyBytes) }
}

/// Where a page's own clock is (``PageBudget/timers``): Chromium's virtual time, given one
/// span of page time per stage (after the load event, after the settle script).
enum PageClock: Sendable, Equatable {
    /// Not asked for in this stage (before the load event, or ``PageBudget/timers`` is 0).
    case real
    /// `Emulation.setVirtualTimePolicy` sent. Spans never overlap in a tab, so an expiry that
    /// arrives before the reply (an idle page spends its span at once) is this span's.
    case asked
    /// The span is running: timers run ahead while no request is in flight.
    case running
    /// The span is spent with no request in flight: the stage is over.
    case expired
    /// The browser refused virtual time: the real clock's quiet period decides.
    case refused
}
