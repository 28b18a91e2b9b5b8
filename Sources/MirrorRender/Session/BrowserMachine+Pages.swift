import Foundation

/// Pages: paused requests, the handler's answers, deciding when a page is done, reading it.
extension BrowserMachine {
    /// A request of the page in tab `index` paused.
    mutating func requestPaused(_ paused: PausedRequest, tab index: Int, into actions: inout [Action]) {
        guard case .rendering(var run) = tabs[index].phase, run.captureAttempt == 0 else {
            // Between pages (or while the DOM is read): nothing may load now.
            send(.fail(paused, reason: .aborted), purpose: .answer, into: &actions)
            return
        }
        let isMainFrame = paused.frameID == tabs[index].targetID && paused.sessionID == tabs[index].sessionID
        let isDocument = paused.resourceType == "Document"
        guard run.documentSeen || (isDocument && isMainFrame) else {
            // Before its own document nothing of this page can ask: the previous page of the tab,
            // still there until the new one commits, asks for nothing more.
            send(.fail(paused, reason: .aborted), purpose: .answer, into: &actions)
            return
        }
        var isPageDocument = false
        if isDocument, isMainFrame {
            if !run.documentSeen || paused.redirectedRequestID != nil {
                run.documentSeen = true
                isPageDocument = true
            } else {
                // The page navigates itself (location = …): it stays, and the target is reported.
                if run.navigations.count < 100 { run.navigations.append(paused.url) }
                tabs[index].phase = .rendering(run)
                send(.fail(paused, reason: .aborted), purpose: .answer, into: &actions)
                return
            }
        }
        guard run.requestCount < configuration.budget.maximumRequests else {
            run.budgetCut = run.budgetCut ?? .requests
            tabs[index].phase = .rendering(run)
            send(.fail(paused, reason: .blockedByClient), purpose: .answer, into: &actions)
            return
        }
        run.requestCount += 1
        run.lastActivity = now
        run.outstanding[paused.requestID] = paused
        // Asked for after its span of page time: the page is busy again, and so is its clock.
        if run.clock == .expired { startClock(&run, tab: index, into: &actions) }
        let request = InterceptedRequest(
            url: paused.url, method: paused.method, headers: paused.headers, body: paused.body, resourceType: paused.resourceType,
            isPageDocument: isPageDocument, isFrameDocument: isDocument && !isMainFrame, maximumBodyBytes: run.bytesLeft)
        let token = PauseToken(tab: index, generation: run.generation, requestID: paused.requestID)
        tabs[index].phase = .rendering(run)
        actions.append(.ask(job: run.job, token: token, request: request))
    }

    /// The handler answered a paused request.
    mutating func deliver(_ answer: InterceptedAnswer, for token: PauseToken, into actions: inout [Action]) {
        guard phase == .running, token.tab < tabs.count, case .rendering(var run) = tabs[token.tab].phase,
              run.generation == token.generation, let paused = run.outstanding.removeValue(forKey: token.requestID)
        else { return }  // the page is over: its requests were failed when it ended
        run.lastActivity = now
        switch answer {
        case .fulfil(let status, let headers, let body):
            if Int64(body.count) > run.bytesLeft {
                run.budgetCut = run.budgetCut ?? .bytes
                send(.fail(paused, reason: .blockedByClient), purpose: .answer, into: &actions)
            } else {
                run.bodyBytes += Int64(body.count)
                send(.fulfil(paused, status: status, headers: headers, body: body), purpose: .answer, into: &actions)
            }
        case .fail(let reason):
            send(.fail(paused, reason: reason), purpose: .answer, into: &actions)
        }
        // An answer after the span (a worker's request, which does not hold the page's clock):
        // the page gets time to use it.
        if run.clock == .expired { startClock(&run, tab: token.tab, into: &actions) }
        tabs[token.tab].phase = .rendering(run)
    }

    /// Moves the page in tab `index` on, if its time has come.
    mutating func advance(_ index: Int, into actions: inout [Action]) {
        guard case .rendering(var run) = tabs[index].phase, let session = tabs[index].sessionID else { return }
        switch run.step(now: now) {
        case .wait:
            return
        case .settle:
            run.settled = true
            run.requestsAtSettle = run.requestCount
            run.lastActivity = now
            send(DevToolsCommand("Runtime.evaluate", ["expression": .string(PageScripts.settle), "returnByValue": true],
                                 session: session), purpose: .settle, tab: index, generation: run.generation, into: &actions)
            // After the script, so that the loads it starts hold the new span's clock from its
            // start; and only once the last span ran out (a span still running, when the real
            // clock's quiet ended the stage, goes on into this one).
            if run.clock == .expired { startClock(&run, tab: index, into: &actions) }
            tabs[index].phase = .rendering(run)
        case .capture(let timeUp):
            if timeUp { run.budgetCut = run.budgetCut ?? .time }
            run.captureAttempt = 1
            run.captureDeadline = now + run.budget.capture
            tabs[index].phase = .rendering(run)
            sendCapture(index, session: session, generation: run.generation, into: &actions)
        case .stopScriptsAndCaptureAgain:
            run.budgetCut = .script
            run.captureAttempt = 2
            run.captureDeadline = now + run.budget.capture
            tabs[index].phase = .rendering(run)
            send(DevToolsCommand("Runtime.terminateExecution", session: session), purpose: .other, into: &actions)
            sendCapture(index, session: session, generation: run.generation, into: &actions)
        case .unresponsive:
            retryOrFail(run, failure: .unresponsive(attempts: run.attempt), into: &actions)
            // The tab's renderer is stuck: a new tab, not a navigation, frees it.
            tabs[index].phase = .rendering(run)
            closeAndReplace(index, into: &actions)
        }
    }

    /// Gives the page in tab `index` a span of its own clock (``PageBudget/timers``) for the
    /// stage it is in: Chromium's virtual time, which stands still while a request is in flight
    /// and runs ahead to the next timer when the page is idle; `Emulation.virtualTimeBudgetExpired`
    /// ends the stage. Nothing when the budget has no timers or the browser refused before.
    mutating func startClock(_ run: inout PageRun, tab index: Int, into actions: inout [Action]) {
        guard run.budget.timers > 0, run.clock != .refused, let session = tabs[index].sessionID else { return }
        run.clock = .asked
        let policy: JSONValue = ["policy": "pauseIfNetworkFetchesPending", "budget": .number(run.budget.timers * 1000)]
        send(DevToolsCommand("Emulation.setVirtualTimePolicy", policy, session: session), purpose: .clock, tab: index,
             generation: run.generation, into: &actions)
    }

    /// The policy that takes a tab off a spent span: without it the page's clock stays stopped,
    /// and so would the next page's loading in the same tab. No budget: timers still run ahead
    /// while the tab is idle, never while a request is in flight.
    static func clockWithoutBudget(session: String) -> DevToolsCommand {
        DevToolsCommand("Emulation.setVirtualTimePolicy", ["policy": "pauseIfNetworkFetchesPending"], session: session)
    }

    private mutating func sendCapture(_ index: Int, session: String, generation: Int, into actions: inout [Action]) {
        send(DevToolsCommand("Runtime.evaluate", ["expression": .string(PageScripts.capture), "returnByValue": true],
                             session: session), purpose: .capture, tab: index, generation: generation, into: &actions)
    }

    /// Replies to `Page.navigate`, the settle script and the capture.
    mutating func pageReply(_ command: PendingCommand, tab index: Int, result: Result<JSONValue, DevToolsCommandError>,
                            into actions: inout [Action]) {
        guard case .rendering(var run) = tabs[index].phase, run.generation == command.generation else { return }
        switch command.purpose {
        case .navigate:
            switch result {
            case .failure(let error):
                finishPage(index, .failure(.navigationFailed(errorText: error.message)), into: &actions)
            case .success(let value):
                if let text = value["errorText"]?.string, !text.isEmpty {
                    finishPage(index, .failure(.navigationFailed(errorText: text)), into: &actions)
                    return
                }
                run.loaderID = value["loaderId"]?.string
                if let loader = run.loaderID, run.loadedLoaders.contains(loader) {
                    run.loaded = true
                    run.lastActivity = now
                    startClock(&run, tab: index, into: &actions)
                }
                tabs[index].phase = .rendering(run)
            }
        case .clock:
            switch result {
            case .success where run.clock == .asked: run.clock = .running
            case .failure: run.clock = .refused
            default: break
            }
            tabs[index].phase = .rendering(run)
        case .capture:
            guard run.captureAttempt > 0 else { return }
            guard case .success(let value) = result, value["exceptionDetails"] == nil,
                  let text = value["result"]?["value"]?.string, let captured = CapturedDOM(json: text)
            else {
                // Interrupted (terminated scripts) or unreadable: asked again, or given up, on the deadline.
                if run.captureAttempt == 1 { run.captureDeadline = now }
                tabs[index].phase = .rendering(run)
                advance(index, into: &actions)
                return
            }
            let page = RenderedPage(
                url: captured.url.isEmpty ? run.url : captured.url, html: captured.html, frames: captured.frames,
                completion: run.budgetCut.map { .budgetCut($0) } ?? .idle, requestCount: run.requestCount,
                bodyBytes: run.bodyBytes, navigations: run.navigations, seconds: now - run.started)
            finishPage(index, .success(page), into: &actions)
        default:
            break
        }
    }
}

/// The capture script's answer (``PageScripts/capture``), decoded.
struct CapturedDOM: Sendable, Equatable {
    var url: String
    var html: [UInt8]
    var frames: [RenderedFrame]

    /// Decodes the JSON text the script returned; nil when it is not what the script makes.
    init?(json text: String) {
        guard let value = try? JSONValue.parse(Array(text.utf8)), let html = value["html"]?.string else { return nil }
        url = value["url"]?.string ?? ""
        self.html = Array(html.utf8)
        frames = (value["frames"]?.array ?? []).compactMap { frame in
            guard let url = frame["url"]?.string, let html = frame["html"]?.string else { return nil }
            return RenderedFrame(url: url, html: Array(html.utf8))
        }
    }
}
