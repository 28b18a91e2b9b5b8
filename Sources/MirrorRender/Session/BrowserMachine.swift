/// The DevTools client of one browser as a value-type state machine: messages, submissions,
/// answers and clock ticks in; actions out (write this command, ask the handler about that
/// request, this page is done, start the browser again). It does no I/O; ``RenderEngine``
/// is the thin shell that runs it on a thread of its own.
///
/// It keeps ``Configuration/tabs`` tabs open and reuses them: a page is rendered by
/// `Page.navigate` in a ready tab, every request it makes is paused (`Fetch.enable` on `*` at
/// the Request stage) and handed out, and when the page is done (loaded, and a span of its own
/// clock run out with no request in flight — ``PageClock`` — or quiet on the real clock, or out of
/// budget) its DOM is read, the requests still paused are failed, and the tab takes the next
/// queued page, or goes back to `about:blank` when none waits. Pages wait in a queue for a free tab.
///
/// Failures: a tab whose renderer crashes is closed and replaced; a browser that exits, closes
/// its pipe or stops answering is started again (``Action/restartBrowser``). Either way the
/// page is tried once more, then reported as failed.
struct BrowserMachine: Sendable {
    struct Configuration: Sendable, Equatable {
        /// Tabs open at once: pages rendered concurrently.
        var tabs: Int
        var budget: PageBudget
        /// Seconds a browser-level command (opening a tab) may take before the browser is
        /// taken for hung.
        var commandTimeout: Double = 20
    }

    enum Input: Sendable {
        /// The browser process is running and its pipe is open.
        case browserStarted
        case message(DevToolsMessage)
        /// Render `url` (job ids are the caller's, unique).
        case submit(job: Int, url: String)
        /// The handler's answer to ``Action/ask(job:token:request:)``.
        case answer(token: PauseToken, InterceptedAnswer)
        /// The clock moved (the shell ticks at ``nextDeadline`` or sooner).
        case tick
        /// The browser exited, closed its pipe, or the shell gave up on it.
        case browserLost(reason: String)
        /// The browser could not even be spawned: render mode is unavailable.
        case startFailed(RenderError)
        /// The run is over: every page still waiting fails.
        case shutdown
    }

    enum Action: Sendable, Equatable {
        /// Write these bytes (one framed command) to the browser.
        case write([UInt8])
        /// Ask the request handler of `job`, and feed back ``Input/answer(token:_:)``.
        case ask(job: Int, token: PauseToken, request: InterceptedRequest)
        /// `job` is done.
        case finish(job: Int, Result<RenderedPage, PageRenderFailure>)
        /// The browser is ready for pages (its first tab is open): sent once per start.
        case ready
        /// Kill the browser and start a new one, then feed ``Input/browserStarted``.
        case restartBrowser
        /// The browser cannot be used any more (it failed to start twice in a row).
        case unavailable(RenderError)
    }

    /// Identifies one paused request for the handler's answer.
    struct PauseToken: Sendable, Equatable, Hashable {
        var tab: Int
        var generation: Int
        var requestID: String
    }

    enum Phase: Sendable, Equatable {
        /// Waiting for the process (``Input/browserStarted``).
        case starting
        case running
        case unavailable(RenderError)
        case stopped
    }

    let configuration: Configuration
    private(set) var phase: Phase = .starting
    var tabs: [Tab] = []
    var queue: [QueuedPage] = []
    /// Commands sent and not answered yet, by id.
    var pending: [Int: PendingCommand] = [:]
    var nextCommandID = 1
    var nextGeneration = 1
    /// Sessions of targets auto-attached to a tab (workers), and the tab they belong to.
    var childSessions: [String: Int] = [:]
    /// Starts that ended before a tab was ready, in a row.
    var failedStarts = 0
    var announcedReady = false
    /// The clock, as last fed.
    var now: Double = 0

    struct QueuedPage: Sendable, Equatable {
        var job: Int
        var url: String
        var attempt: Int
    }

    struct PendingCommand: Sendable, Equatable {
        var purpose: Purpose
        var tab: Int?
        var generation: Int
        var sentAt: Double
        /// Browser-level commands that, unanswered, mean the browser hangs.
        var guardsLiveness: Bool
    }

    enum Purpose: Sendable, Equatable {
        case createTarget, attach, configure, navigate, settle, capture, reset, closeTarget, answer, childSetup, clock, releaseClock, other
    }

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Feeds one input at time `now` (seconds, monotonic).
    mutating func handle(_ input: Input, now: Double) -> [Action] {
        self.now = now
        var actions: [Action] = []
        switch input {
        case .browserStarted:
            guard phase == .starting else { break }
            phase = .running
            announcedReady = false
            send(DevToolsCommand("Browser.setDownloadBehavior", ["behavior": "deny"]), purpose: .other, into: &actions)
            for index in 0..<max(1, configuration.tabs) { openTab(index, into: &actions) }
        case .message(let message):
            guard phase == .running else { break }
            receive(message, into: &actions)
        case .submit(let job, let url):
            switch phase {
            case .unavailable(let error):
                actions.append(.finish(job: job, .failure(.browserUnavailable(error))))
            case .stopped:
                actions.append(.finish(job: job, .failure(.browserUnavailable(.stopped))))
            case .starting, .running:
                queue.append(QueuedPage(job: job, url: url, attempt: 1))
            }
        case .answer(let token, let answer):
            deliver(answer, for: token, into: &actions)
        case .tick:
            tick(into: &actions)
        case .browserLost(let reason):
            lose(reason: reason, into: &actions)
        case .startFailed(let error):
            becomeUnavailable(error, interrupted: [], into: &actions)
        case .shutdown:
            phase = .stopped
            for page in queue { actions.append(.finish(job: page.job, .failure(.browserUnavailable(.stopped)))) }
            queue = []
            for index in tabs.indices {
                if case .rendering(let run) = tabs[index].phase {
                    actions.append(.finish(job: run.job, .failure(.browserUnavailable(.stopped))))
                }
                tabs[index].phase = .closed
            }
            pending = [:]
        }
        dispatch(into: &actions)
        return actions
    }

    /// The next time the machine needs a ``Input/tick`` (nil: only inputs matter).
    var nextDeadline: Double? {
        var next: Double?
        func consider(_ time: Double) { next = min(next ?? time, time) }
        for tab in tabs {
            switch tab.phase {
            case .rendering(let run): consider(run.deadline(now: now))
            case .releasing(let deadline): consider(deadline)
            default: break
            }
        }
        for command in pending.values where command.guardsLiveness {
            consider(command.sentAt + configuration.commandTimeout)
        }
        return next
    }

    // MARK: Sending

    /// Sends `command`, remembering what its reply is for.
    mutating func send(_ command: DevToolsCommand, purpose: Purpose, tab: Int? = nil, generation: Int = 0,
                       guardsLiveness: Bool = false, into actions: inout [Action]) {
        let id = nextCommandID
        nextCommandID += 1
        pending[id] = PendingCommand(purpose: purpose, tab: tab, generation: generation, sentAt: now, guardsLiveness: guardsLiveness)
        actions.append(.write(command.frame(id: id)))
    }

    // MARK: Receiving

    private mutating func receive(_ message: DevToolsMessage, into actions: inout [Action]) {
        switch message {
        case .reply(let id, _, let result):
            guard let command = pending.removeValue(forKey: id) else { return }
            reply(command, result: result, into: &actions)
        case .event(let method, let sessionID, let params):
            event(method, sessionID: sessionID, params: params, into: &actions)
        }
    }

    private mutating func event(_ method: String, sessionID: String?, params: JSONValue, into actions: inout [Action]) {
        switch method {
        case "Target.attachedToTarget":
            // A worker (or other dependent target) of a tab: its requests are paused too.
            guard let parent = sessionID.flatMap(tabIndex(session:)), let child = params["sessionId"]?.string else { return }
            childSessions[child] = parent
            let setupGeneration = tabs[parent].generation
            send(DevToolsCommand("Fetch.enable", Self.fetchPatterns, session: child), purpose: .childSetup, tab: parent,
                 generation: setupGeneration, into: &actions)
            send(DevToolsCommand("Runtime.runIfWaitingForDebugger", session: child), purpose: .childSetup, tab: parent,
                 generation: setupGeneration, into: &actions)
        case "Target.detachedFromTarget":
            if let child = params["sessionId"]?.string { childSessions[child] = nil }
        case "Fetch.requestPaused":
            guard let paused = PausedRequest(params: params, sessionID: sessionID) else { return }
            guard let index = sessionID.flatMap({ tabIndex(session: $0) ?? childSessions[$0] }) else {
                // Not a tab of ours (any more): let it fail rather than hang.
                send(.fail(paused, reason: .aborted), purpose: .answer, into: &actions)
                return
            }
            requestPaused(paused, tab: index, into: &actions)
        case "Page.lifecycleEvent":
            guard let index = sessionID.flatMap(tabIndex(session:)), params["name"]?.string == "load",
                  params["frameId"]?.string == tabs[index].targetID, let loader = params["loaderId"]?.string,
                  case .rendering(var run) = tabs[index].phase else { return }
            run.loadedLoaders.insert(loader)
            if run.loaderID == loader, !run.loaded {
                run.loaded = true
                run.lastActivity = now
                startClock(&run, tab: index, into: &actions)
            }
            tabs[index].phase = .rendering(run)
        case "Emulation.virtualTimeBudgetExpired":
            // Spans never overlap in a tab (a new one starts only after the last one ran out),
            // so an expiry is the current span's, even before its command's reply.
            guard let index = sessionID.flatMap(tabIndex(session:)) else { return }
            switch tabs[index].phase {
            case .rendering(var run) where run.clock == .asked || run.clock == .running:
                run.clock = .expired
                tabs[index].phase = .rendering(run)
                advance(index, into: &actions)
            case .releasing:
                releaseClock(index, into: &actions)
            default:
                break
            }
        case "Page.javascriptDialogOpening":
            // alert(), confirm() and prompt() would block the page: dismissed. A beforeunload
            // dialog would block the next navigation: accepted.
            guard let sessionID else { return }
            let accept = params["type"]?.string == "beforeunload"
            send(DevToolsCommand("Page.handleJavaScriptDialog", ["accept": .bool(accept)], session: sessionID),
                 purpose: .other, into: &actions)
        case "Inspector.targetCrashed":
            guard let index = sessionID.flatMap(tabIndex(session:)) else { return }
            tabCrashed(index, into: &actions)
        case "Inspector.detached":
            guard let index = sessionID.flatMap(tabIndex(session:)) else { return }
            tabCrashed(index, into: &actions)
        default:
            break
        }
    }

    func tabIndex(session: String) -> Int? {
        tabs.firstIndex { $0.sessionID == session }
    }

    static let fetchPatterns: JSONValue = ["patterns": [["urlPattern": "*", "requestStage": "Request"]]]

    // MARK: Losing the browser

    mutating func lose(reason: String, into actions: inout [Action]) {
        guard phase == .running || phase == .starting else { return }
        let neverReady = !announcedReady
        var interrupted: [QueuedPage] = []
        for tab in tabs {
            if case .rendering(let run) = tab.phase {
                interrupted.append(QueuedPage(job: run.job, url: run.url, attempt: run.attempt))
            }
        }
        tabs = []
        pending = [:]
        childSessions = [:]
        if neverReady {
            failedStarts += 1
        } else {
            failedStarts = 0
        }
        if failedStarts >= 2 {
            becomeUnavailable(.browserExited(status: "stopped", detail: reason), interrupted: interrupted, into: &actions)
            return
        }
        var retried: [QueuedPage] = []
        for page in interrupted {
            if page.attempt >= 2 {
                actions.append(.finish(job: page.job, .failure(.browserCrashed(attempts: page.attempt))))
            } else {
                retried.append(QueuedPage(job: page.job, url: page.url, attempt: page.attempt + 1))
            }
        }
        queue = retried + queue
        phase = .starting
        actions.append(.restartBrowser)
    }

    private mutating func becomeUnavailable(_ error: RenderError, interrupted: [QueuedPage], into actions: inout [Action]) {
        phase = .unavailable(error)
        tabs = []
        pending = [:]
        childSessions = [:]
        for page in interrupted + queue { actions.append(.finish(job: page.job, .failure(.browserUnavailable(error)))) }
        queue = []
        actions.append(.unavailable(error))
    }

    private mutating func tick(into actions: inout [Action]) {
        guard phase == .running else { return }
        if pending.values.contains(where: { $0.guardsLiveness && now - $0.sentAt >= configuration.commandTimeout }) {
            lose(reason: "the browser did not answer for \(Int(configuration.commandTimeout)) s", into: &actions)
            return
        }
        for index in tabs.indices {
            switch tabs[index].phase {
            case .rendering: advance(index, into: &actions)
            case .releasing(let deadline) where now >= deadline: closeAndReplace(index, into: &actions)
            default: break
            }
        }
    }
}
