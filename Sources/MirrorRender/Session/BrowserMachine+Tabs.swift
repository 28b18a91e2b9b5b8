/// Tabs: opening, configuring, handing out, resetting and replacing them.
extension BrowserMachine {
    /// Opens tab `index` (a new one, or a replacement for a closed one).
    mutating func openTab(_ index: Int, into actions: inout [Action]) {
        var tab = Tab(index: index)
        tab.generation = nextGeneration
        nextGeneration += 1
        if index < tabs.count { tabs[index] = tab } else { tabs.append(tab) }
        send(DevToolsCommand("Target.createTarget", ["url": "about:blank"]), purpose: .createTarget, tab: index,
             generation: tab.generation, guardsLiveness: true, into: &actions)
    }

    /// The commands that make a fresh tab's session ready: page and lifecycle events, every
    /// request paused at the Request stage, crash reports, and dependent targets (workers)
    /// attached paused so that their requests are paused too before they run.
    static func configurationCommands(session: String) -> [DevToolsCommand] {
        [
            DevToolsCommand("Page.enable", session: session),
            DevToolsCommand("Page.setLifecycleEventsEnabled", ["enabled": true], session: session),
            DevToolsCommand("Fetch.enable", fetchPatterns, session: session),
            DevToolsCommand("Inspector.enable", session: session),
            DevToolsCommand("Target.setAutoAttach", ["autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true],
                            session: session),
        ]
    }

    /// Handles the reply to one of our commands.
    mutating func reply(_ command: PendingCommand, result: Result<JSONValue, DevToolsCommandError>, into actions: inout [Action]) {
        // A reply for an earlier page, or for a tab since replaced, is stale.
        guard let index = command.tab, index < tabs.count, tabs[index].generation == command.generation else { return }
        switch command.purpose {
        case .createTarget:
            guard case .success(let value) = result, let target = value["targetId"]?.string else {
                lose(reason: "the browser could not open a tab (\(Self.describe(result)))", into: &actions)
                return
            }
            tabs[index].targetID = target
            tabs[index].phase = .attaching
            send(DevToolsCommand("Target.attachToTarget", ["targetId": .string(target), "flatten": true]), purpose: .attach,
                 tab: index, generation: command.generation, guardsLiveness: true, into: &actions)
        case .attach:
            guard case .success(let value) = result, let session = value["sessionId"]?.string else {
                lose(reason: "the browser could not attach to its tab (\(Self.describe(result)))", into: &actions)
                return
            }
            tabs[index].sessionID = session
            let commands = Self.configurationCommands(session: session)
            tabs[index].phase = .configuring(waiting: commands.count)
            for configuration in commands {
                send(configuration, purpose: .configure, tab: index, generation: command.generation, guardsLiveness: true,
                     into: &actions)
            }
        case .configure:
            guard case .configuring(let waiting) = tabs[index].phase else { return }
            guard case .success = result else {
                lose(reason: "the browser refused to configure its tab (\(Self.describe(result)))", into: &actions)
                return
            }
            if waiting > 1 {
                tabs[index].phase = .configuring(waiting: waiting - 1)
            } else {
                tabs[index].phase = .ready
                if !announcedReady {
                    announcedReady = true
                    failedStarts = 0
                    actions.append(.ready)
                }
            }
        case .navigate, .settle, .capture, .clock:
            pageReply(command, tab: index, result: result, into: &actions)
        case .releaseClock:
            // Refused or not, the reset goes on (a refusal leaves the next page on the real clock's quiet).
            guard tabs[index].phase == .resetting else { return }
            resetOrReuse(index, into: &actions)
        case .reset:
            guard tabs[index].phase == .resetting, tabs[index].generation == command.generation else { return }
            tabs[index].phase = .ready
        case .closeTarget, .answer, .childSetup, .other:
            break
        }
    }

    static func describe(_ result: Result<JSONValue, DevToolsCommandError>) -> String {
        switch result {
        case .success: "unexpected reply"
        case .failure(let error): error.description
        }
    }

    /// Starts queued pages in ready tabs.
    mutating func dispatch(into actions: inout [Action]) {
        guard phase == .running else { return }
        while !queue.isEmpty, let index = tabs.firstIndex(where: { $0.phase == .ready }) {
            let page = queue.removeFirst()
            let generation = nextGeneration
            nextGeneration += 1
            tabs[index].generation = generation
            tabs[index].phase = .rendering(PageRun(job: page.job, url: page.url, attempt: page.attempt, generation: generation,
                                                   now: now, budget: configuration.budget))
            guard let session = tabs[index].sessionID else { continue }
            send(DevToolsCommand("Page.navigate", ["url": .string(page.url)], session: session), purpose: .navigate, tab: index,
                 generation: generation, into: &actions)
        }
    }

    /// Ends the page in tab `index` with `result`: requests still paused fail, and the tab
    /// goes back to `about:blank` (or, after a page that would not answer, is replaced).
    mutating func finishPage(_ index: Int, _ result: Result<RenderedPage, PageRenderFailure>, replaceTab: Bool = false,
                             into actions: inout [Action]) {
        guard case .rendering(let run) = tabs[index].phase else { return }
        actions.append(.finish(job: run.job, result))
        for paused in run.outstanding.values {
            send(.fail(paused, reason: .aborted), purpose: .answer, into: &actions)
        }
        if replaceTab {
            closeAndReplace(index, into: &actions)
            return
        }
        switch run.clock {
        case .asked, .running:
            // Its requests have just failed, so an idle page reaches the span's end at once.
            tabs[index].phase = .releasing(deadline: now + Self.releaseTimeout)
        case .expired:
            releaseClock(index, into: &actions)
        case .real, .refused:
            tabs[index].phase = .resetting
            resetOrReuse(index, into: &actions)
        }
    }

    /// The end of a page's tab: straight on to the next queued page (one navigation per page, not
    /// two; the new page accepts no request before its own document, so the old page's stragglers
    /// fail), or back to `about:blank` when nothing waits, which stops the old page.
    mutating func resetOrReuse(_ index: Int, into actions: inout [Action]) {
        if !queue.isEmpty {
            tabs[index].phase = .ready
            return
        }
        guard let session = tabs[index].sessionID else { return }
        navigateToBlank(index, session: session, into: &actions)
    }

    /// Seconds a finished page's span of page time may take to run out before its tab is replaced.
    static let releaseTimeout = 2.0

    /// Lets the page's clock go (``clockWithoutBudget(session:)``), then resets the tab: a
    /// navigation that raced the policy's change could commit into a renderer whose clock is
    /// still stopped, and never load.
    mutating func releaseClock(_ index: Int, into actions: inout [Action]) {
        tabs[index].phase = .resetting
        guard let session = tabs[index].sessionID else { return }
        send(Self.clockWithoutBudget(session: session), purpose: .releaseClock, tab: index,
             generation: tabs[index].generation, guardsLiveness: true, into: &actions)
    }

    /// The last step of a reset: back to `about:blank`, after which the tab is ready.
    mutating func navigateToBlank(_ index: Int, session: String, into actions: inout [Action]) {
        send(DevToolsCommand("Page.navigate", ["url": "about:blank"], session: session), purpose: .reset, tab: index,
             generation: tabs[index].generation, guardsLiveness: true, into: &actions)
    }

    /// Puts a page back in the queue for a second try, or reports it with `failure` after two.
    mutating func retryOrFail(_ run: PageRun, failure: PageRenderFailure, into actions: inout [Action]) {
        if run.attempt >= 2 {
            actions.append(.finish(job: run.job, .failure(failure)))
        } else {
            queue.insert(QueuedPage(job: run.job, url: run.url, attempt: run.attempt + 1), at: 0)
        }
    }

    /// The renderer of tab `index` crashed (or its session went away).
    mutating func tabCrashed(_ index: Int, into actions: inout [Action]) {
        if case .rendering(let run) = tabs[index].phase {
            retryOrFail(run, failure: .pageCrashed(attempts: run.attempt), into: &actions)
        }
        closeAndReplace(index, into: &actions)
    }

    /// Closes tab `index` and opens a new one in its place.
    mutating func closeAndReplace(_ index: Int, into actions: inout [Action]) {
        if let target = tabs[index].targetID {
            send(DevToolsCommand("Target.closeTarget", ["targetId": .string(target)]), purpose: .closeTarget, into: &actions)
        }
        for (child, owner) in childSessions where owner == index { childSessions[child] = nil }
        tabs[index].phase = .closed
        openTab(index, into: &actions)
    }
}
