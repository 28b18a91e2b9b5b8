import Testing
@testable import MirrorRender

/// The DevTools client state machine without a browser: each test plays the browser's part
/// by answering the commands the machine writes.
@Suite struct BrowserMachineTests {
    /// Feeds a machine and decodes what it writes.
    struct Driver {
        var machine: BrowserMachine
        var now: Double = 100
        /// Commands written and not yet replied to by the test: id → (method, params, session).
        var written: [(id: Int, method: String, params: JSONValue, session: String?)] = []
        var other: [BrowserMachine.Action] = []

        init(tabs: Int = 1, budget: PageBudget = PageBudget()) {
            machine = BrowserMachine(configuration: .init(tabs: tabs, budget: budget))
        }

        mutating func feed(_ input: BrowserMachine.Input) {
            for action in machine.handle(input, now: now) {
                if case .write(let bytes) = action, let value = try? JSONValue.parse(bytes.dropLast()) {
                    written.append((value["id"]?.int ?? -1, value["method"]?.string ?? "", value["params"] ?? .null,
                                    value["sessionId"]?.string))
                } else {
                    other.append(action)
                }
            }
        }

        /// Removes and returns the first written command with `method`.
        mutating func take(_ method: String) -> (id: Int, params: JSONValue, session: String?)? {
            guard let index = written.firstIndex(where: { $0.method == method }) else { return nil }
            let command = written.remove(at: index)
            return (command.id, command.params, command.session)
        }

        mutating func reply(_ method: String, _ result: JSONValue = .object([:])) {
            guard let command = take(method) else {
                Issue.record("no \(method) was written; written: \(written.map(\.method))")
                return
            }
            feed(.message(.reply(id: command.id, sessionID: command.session, result: .success(result))))
        }

        /// Starts the browser and makes every tab ready.
        mutating func startReady(tabs: Int = 1) {
            feed(.browserStarted)
            reply("Browser.setDownloadBehavior")
            for tab in 0..<tabs {
                reply("Target.createTarget", ["targetId": .string("T\(tab)")])
                reply("Target.attachToTarget", ["sessionId": .string("S\(tab)")])
                for method in ["Page.enable", "Page.setLifecycleEventsEnabled", "Fetch.enable", "Inspector.enable", "Target.setAutoAttach"] {
                    reply(method)
                }
            }
        }

        mutating func pause(_ id: String, url: String, type: String = "Document", frame: String = "T0", session: String = "S0") {
            feed(.message(.event(method: "Fetch.requestPaused", sessionID: session, params: [
                "requestId": .string(id), "request": ["url": .string(url), "method": "GET", "headers": [:]],
                "frameId": .string(frame), "resourceType": .string(type),
            ])))
        }

        /// The asks made so far (removed).
        mutating func asks() -> [(job: Int, token: BrowserMachine.PauseToken, request: InterceptedRequest)] {
            var found: [(Int, BrowserMachine.PauseToken, InterceptedRequest)] = []
            other.removeAll { action in
                if case .ask(let job, let token, let request) = action { found.append((job, token, request)); return true }
                return false
            }
            return found
        }

        mutating func finished() -> [(job: Int, result: Result<RenderedPage, PageRenderFailure>)] {
            var found: [(Int, Result<RenderedPage, PageRenderFailure>)] = []
            other.removeAll { action in
                if case .finish(let job, let result) = action { found.append((job, result)); return true }
                return false
            }
            return found
        }

        mutating func advance(_ seconds: Double) {
            now += seconds
            feed(.tick)
        }
    }

    static let captured = #"{"url":"https://a.test/","html":"<!DOCTYPE html>\n<html><body>built</body></html>","frames":[]}"#

    @Test func opensItsTabsAndAnnouncesReadinessOnce() {
        var driver = Driver(tabs: 2)
        driver.startReady(tabs: 2)
        #expect(driver.other.filter { $0 == .ready }.count == 1)
        #expect(driver.machine.tabs.map(\.phase) == [.ready, .ready])
        #expect(driver.written.isEmpty)
    }

    @Test func rendersAPageFromNavigationToCapture() throws {
        var driver = Driver()
        driver.startReady()
        driver.feed(.submit(job: 7, url: "https://a.test/"))
        let value1 = driver.take("Page.navigate")
        let navigate = try #require(value1)
        #expect(navigate.params["url"] == "https://a.test/")
        #expect(navigate.session == "S0")
        // Given the document pauses, when the handler answers, then the browser gets it.
        driver.pause("R1", url: "https://a.test/")
        let value2 = driver.asks().first
        let ask = try #require(value2)
        #expect(ask.job == 7 && ask.request.isPageDocument)
        driver.feed(.answer(token: ask.token, .fulfil(status: 200, headers: [HeaderField("Content-Type", "text/html")],
                                                        body: Array("<p>".utf8))))
        let value3 = driver.take("Fetch.fulfillRequest")
        let fulfil = try #require(value3)
        #expect(fulfil.params["requestId"] == "R1" && fulfil.params["responseCode"] == 200)
        driver.feed(.message(.reply(id: navigate.id, sessionID: "S0", result: .success(["frameId": "T0", "loaderId": "L1"]))))
        driver.feed(.message(.event(method: "Page.lifecycleEvent", sessionID: "S0",
                                    params: ["name": "load", "frameId": "T0", "loaderId": "L1"])))
        // Loaded: the page's clock is asked for (1 s of page time); this browser refuses it, so
        // the real clock's quiet periods decide.
        let value0 = driver.take("Emulation.setVirtualTimePolicy")
        let clock = try #require(value0)
        #expect(clock.params["policy"] == "pauseIfNetworkFetchesPending" && clock.params["budget"] == 1000)
        driver.feed(.message(.reply(id: clock.id, sessionID: "S0", result: .failure(.init(code: -32601, message: "not found")))))
        // Quiet for the quiet period: the settle script; quiet again: the capture.
        driver.advance(0.1)
        #expect(driver.take("Runtime.evaluate") == nil)
        driver.advance(0.1)
        let value4 = driver.take("Runtime.evaluate")
        let settle = try #require(value4)
        #expect(settle.params["expression"]?.string == PageScripts.settle)
        #expect(driver.take("Emulation.setVirtualTimePolicy") == nil, "refused once: not asked again")
        driver.advance(0.06)  // the settle script asked for nothing: a short window, not a whole quiet period
        let value5 = driver.take("Runtime.evaluate")
        let capture = try #require(value5)
        #expect(capture.params["expression"]?.string == PageScripts.capture)
        driver.feed(.message(.reply(id: capture.id, sessionID: "S0",
                                    result: .success(["result": ["type": "string", "value": .string(Self.captured)]]))))
        let value6 = driver.finished().first
        let page = try #require(value6).result.get()
        #expect(String(decoding: page.html, as: UTF8.self) == "<!DOCTYPE html>\n<html><body>built</body></html>")
        #expect(page.completion == .idle && page.requestCount == 1 && page.bodyBytes == 3)
        // The tab goes back to about:blank, then takes the next page.
        let value7 = driver.take("Page.navigate")
        let reset = try #require(value7)
        #expect(reset.params["url"] == "about:blank")
        driver.feed(.submit(job: 8, url: "https://a.test/two"))
        #expect(driver.take("Page.navigate") == nil, "not before the reset is done")
        driver.feed(.message(.reply(id: reset.id, sessionID: "S0", result: .success(["frameId": "T0"]))))
        #expect(driver.take("Page.navigate")?.params["url"] == "https://a.test/two")
    }

    @Test func requestsBetweenPagesAndLateAnswersGoNowhere() throws {
        var driver = Driver()
        driver.startReady()
        driver.pause("R0", url: "https://a.test/early.js", type: "Script")
        let value8 = driver.take("Fetch.failRequest")
        #expect(try #require(value8).params["errorReason"] == "Aborted")
        #expect(driver.asks().isEmpty)
        driver.feed(.submit(job: 1, url: "https://a.test/"))
        _ = driver.take("Page.navigate")
        driver.pause("R1", url: "https://a.test/")
        driver.pause("R2", url: "https://a.test/slow.json", type: "XHR")
        let asks = driver.asks()
        driver.advance(30)  // out of time: captured as it is
        let value9 = driver.take("Runtime.evaluate")
        let capture = try #require(value9)
        driver.feed(.message(.reply(id: capture.id, sessionID: "S0",
                                    result: .success(["result": ["type": "string", "value": .string(Self.captured)]]))))
        #expect(try driver.finished().first?.result.get().completion == .budgetCut(.time))
        // Both requests still paused were failed when the page ended; a late answer adds nothing.
        #expect(driver.written.filter { $0.method == "Fetch.failRequest" }.count == 2)
        driver.written.removeAll()
        driver.feed(.answer(token: asks[1].token, .fulfil(status: 200, headers: [], body: [])))
        #expect(driver.written.isEmpty)
    }

    @Test func aScriptNavigationIsRefusedAndReported() throws {
        var driver = Driver()
        driver.startReady()
        driver.feed(.submit(job: 1, url: "https://a.test/"))
        driver.pause("R1", url: "https://a.test/")
        driver.pause("R2", url: "https://a.test/next.html")
        #expect(driver.asks().count == 1)
        let value10 = driver.take("Fetch.failRequest")
        #expect(try #require(value10).params["requestId"] == "R2")
        guard case .rendering(let run) = driver.machine.tabs[0].phase else { Issue.record("not rendering"); return }
        #expect(run.navigations == ["https://a.test/next.html"])
    }

    @Test func aLostBrowserIsRestartedAndItsPageTriedOnceMore() throws {
        var driver = Driver()
        driver.startReady()
        driver.feed(.submit(job: 3, url: "https://a.test/"))
        driver.feed(.browserLost(reason: "exited"))
        #expect(driver.other.contains(.restartBrowser))
        #expect(driver.finished().isEmpty)
        driver.written.removeAll()
        driver.startReady()
        #expect(driver.take("Page.navigate")?.params["url"] == "https://a.test/")
        driver.feed(.browserLost(reason: "exited again"))
        let value11 = driver.finished().first
        #expect(try #require(value11).result == .failure(.browserCrashed(attempts: 2)))
    }

    @Test func aBrowserThatNeverGetsReadyBecomesUnavailable() {
        var driver = Driver()
        driver.feed(.browserStarted)
        driver.advance(21)  // Target.createTarget unanswered
        #expect(driver.other.contains(.restartBrowser))
        driver.other.removeAll()
        driver.feed(.browserStarted)
        driver.feed(.browserLost(reason: "exited with status 1"))
        #expect(driver.other.contains { if case .unavailable = $0 { true } else { false } })
        driver.feed(.submit(job: 4, url: "https://a.test/"))
        #expect(driver.finished().first?.result == .failure(.browserUnavailable(.browserExited(status: "stopped", detail: "exited with status 1"))))
    }

    @Test func aCrashedTabIsReplacedAndItsPageRequeued() throws {
        var driver = Driver()
        driver.startReady()
        driver.feed(.submit(job: 5, url: "https://a.test/"))
        driver.written.removeAll()
        driver.feed(.message(.event(method: "Inspector.targetCrashed", sessionID: "S0", params: [:])))
        #expect(driver.take("Target.closeTarget")?.params["targetId"] == "T0")
        #expect(driver.take("Target.createTarget") != nil)
        #expect(driver.machine.queue.map(\.attempt) == [2])
    }

    @Test func aPageThatDoesNotAnswerIsStoppedThenGivenUp() throws {
        var budget = PageBudget()
        budget.time = 1
        budget.capture = 1
        var driver = Driver(budget: budget)
        driver.startReady()
        driver.feed(.submit(job: 6, url: "https://a.test/"))
        driver.advance(1)
        #expect(driver.take("Runtime.evaluate") != nil)
        driver.advance(1)
        #expect(driver.take("Runtime.terminateExecution") != nil)
        #expect(driver.take("Runtime.evaluate") != nil)
        driver.advance(1)
        // The first attempt is put back for a second try in a fresh tab.
        #expect(driver.machine.queue.map(\.attempt) == [2])
        #expect(driver.take("Target.closeTarget") != nil)
    }

    @Test func workersOfATabArePausedToo() throws {
        var driver = Driver()
        driver.startReady()
        driver.feed(.submit(job: 9, url: "https://a.test/"))
        driver.feed(.message(.event(method: "Target.attachedToTarget", sessionID: "S0",
                                    params: ["sessionId": "W1", "targetInfo": ["type": "worker"], "waitingForDebugger": true])))
        #expect(driver.take("Fetch.enable")?.session == "W1")
        #expect(driver.take("Runtime.runIfWaitingForDebugger")?.session == "W1")
        driver.pause("R1", url: "https://a.test/")
        driver.pause("R2", url: "https://a.test/data.json", type: "Fetch", frame: "", session: "W1")
        let asks = driver.asks()
        #expect(asks.map(\.request.url) == ["https://a.test/", "https://a.test/data.json"])
        driver.feed(.answer(token: asks[1].token, .fail(.blockedByClient)))
        let value12 = driver.take("Fetch.failRequest")
        let failed = try #require(value12)
        #expect(failed.session == "W1" && failed.params["errorReason"] == "BlockedByClient")
    }

    /// A page loaded in tab 0 (document answered, load event seen), its clock asked for.
    static func loadedPage(_ driver: inout Driver) throws -> (id: Int, params: JSONValue) {
        driver.startReady()
        driver.feed(.submit(job: 1, url: "https://a.test/"))
        let value1 = driver.take("Page.navigate")
        let navigate = try #require(value1)
        driver.pause("R1", url: "https://a.test/")
        let ask = try #require(driver.asks().first)
        driver.feed(.answer(token: ask.token, .fulfil(status: 200, headers: [], body: Array("<p>".utf8))))
        driver.feed(.message(.reply(id: navigate.id, sessionID: "S0", result: .success(["frameId": "T0", "loaderId": "L1"]))))
        driver.feed(.message(.event(method: "Page.lifecycleEvent", sessionID: "S0",
                                    params: ["name": "load", "frameId": "T0", "loaderId": "L1"])))
        let value2 = driver.take("Emulation.setVirtualTimePolicy")
        let clock = try #require(value2)
        return (clock.id, clock.params)
    }

    static let expired = BrowserMachine.Input.message(.event(method: "Emulation.virtualTimeBudgetExpired", sessionID: "S0", params: [:]))

    @Test func aPageIsDoneWhenItsPageTimeRunsOutNotAfterAQuietPeriod() throws {
        var driver = Driver()
        let clock = try Self.loadedPage(&driver)
        driver.feed(.message(.reply(id: clock.id, sessionID: "S0", result: .success(["virtualTimeTicksBase": 1]))))
        driver.advance(0.01)
        #expect(driver.take("Runtime.evaluate") == nil, "the page's timers may still be running")
        // The span ran out: the settle script at once (no real quiet period), then a new span.
        driver.feed(Self.expired)
        let settleIndex = try #require(driver.written.firstIndex { $0.method == "Runtime.evaluate" })
        let spanIndex = try #require(driver.written.firstIndex { $0.method == "Emulation.setVirtualTimePolicy" })
        #expect(driver.written[settleIndex].params["expression"]?.string == PageScripts.settle)
        #expect(settleIndex < spanIndex, "the span starts after the script, so the loads it starts hold the clock")
        let value3 = driver.take("Runtime.evaluate")
        #expect(try #require(value3).params["expression"]?.string == PageScripts.settle)
        let value4 = driver.take("Emulation.setVirtualTimePolicy")
        let second = try #require(value4)
        #expect(second.params["budget"] == 1000)
        // An expiry before the reply is this span's (spans never overlap): the capture.
        driver.feed(Self.expired)
        let value5 = driver.take("Runtime.evaluate")
        let capture = try #require(value5)
        #expect(capture.params["expression"]?.string == PageScripts.capture)
        driver.feed(.message(.reply(id: second.id, sessionID: "S0", result: .success([:]))))
        driver.feed(.message(.reply(id: capture.id, sessionID: "S0",
                                    result: .success(["result": ["type": "string", "value": .string(Self.captured)]]))))
        #expect(try driver.finished().first?.result.get().completion == .idle)
        // The clock is let go before the tab goes back to about:blank, and only then.
        let value6 = driver.take("Emulation.setVirtualTimePolicy")
        let release = try #require(value6)
        #expect(release.params["budget"] == nil && release.params["policy"] == "pauseIfNetworkFetchesPending")
        #expect(driver.take("Page.navigate") == nil)
        driver.feed(.message(.reply(id: release.id, sessionID: "S0", result: .success([:]))))
        #expect(driver.take("Page.navigate")?.params["url"] == "about:blank")
    }

    @Test func aSpanStillRunningWhenThePageEndsIsAwaitedBeforeTheReset() throws {
        var driver = Driver()
        let clock = try Self.loadedPage(&driver)
        driver.feed(.message(.reply(id: clock.id, sessionID: "S0", result: .success([:]))))
        driver.pause("R2", url: "https://a.test/slow.json", type: "XHR")
        driver.advance(30)  // out of time with a request in flight: the span has not run out
        let value3 = driver.take("Runtime.evaluate")
        let capture = try #require(value3)
        driver.feed(.message(.reply(id: capture.id, sessionID: "S0",
                                    result: .success(["result": ["type": "string", "value": .string(Self.captured)]]))))
        #expect(try driver.finished().first?.result.get().completion == .budgetCut(.time))
        // A late expiry would stop the next page's clock: the tab waits for it.
        #expect(driver.take("Emulation.setVirtualTimePolicy") == nil)
        #expect(driver.take("Page.navigate") == nil)
        driver.feed(.submit(job: 2, url: "https://a.test/two"))
        #expect(driver.take("Page.navigate") == nil, "the tab is not free yet")
        driver.feed(Self.expired)
        let value4 = driver.take("Emulation.setVirtualTimePolicy")
        let release = try #require(value4)
        #expect(release.params["budget"] == nil)
        driver.feed(.message(.reply(id: release.id, sessionID: "S0", result: .success([:]))))
        // A page waits: the tab goes straight to it, without a stop at about:blank.
        #expect(driver.written.filter { $0.method == "Page.navigate" }.map(\.params["url"]) == ["https://a.test/two"])
    }

    @Test func theNextPageTakesTheTabDirectlyAndTheOldPagesStragglersFail() throws {
        var driver = Driver()
        driver.startReady()
        driver.feed(.submit(job: 1, url: "https://a.test/one"))
        driver.feed(.submit(job: 2, url: "https://a.test/two"))
        let value1 = driver.take("Page.navigate")
        let first = try #require(value1)
        driver.pause("R1", url: "https://a.test/one")
        driver.feed(.message(.reply(id: first.id, sessionID: "S0", result: .success(["frameId": "T0", "loaderId": "L1"]))))
        driver.feed(.message(.event(method: "Page.lifecycleEvent", sessionID: "S0",
                                    params: ["name": "load", "frameId": "T0", "loaderId": "L1"])))
        let value2 = driver.take("Emulation.setVirtualTimePolicy")
        driver.feed(.message(.reply(id: try #require(value2).id, sessionID: "S0", result: .failure(.init(code: -32601, message: "no")))))
        driver.feed(.answer(token: try #require(driver.asks().first).token, .fulfil(status: 200, headers: [], body: [])))
        driver.advance(0.2)
        driver.advance(0.1)
        let value3 = driver.written.last { $0.method == "Runtime.evaluate" && $0.params["expression"]?.string == PageScripts.capture }
        let capture = try #require(value3)
        driver.feed(.message(.reply(id: capture.id, sessionID: "S0",
                                    result: .success(["result": ["type": "string", "value": .string(Self.captured)]]))))
        #expect(driver.finished().count == 1)
        driver.written.removeAll { $0.method != "Page.navigate" }
        #expect(driver.written.map(\.params["url"]) == ["https://a.test/two"], "no about:blank between two pages")
        // The first page is still there until the second commits: what it asks for now fails,
        // and is not counted as the second page's.
        driver.written.removeAll()
        driver.pause("R9", url: "https://a.test/poll.json", type: "XHR")
        #expect(driver.take("Fetch.failRequest")?.params["requestId"] == "R9")
        #expect(driver.asks().isEmpty)
        driver.pause("R10", url: "https://a.test/two")
        driver.pause("R11", url: "https://a.test/two.js", type: "Script")
        #expect(driver.asks().map(\.request.url) == ["https://a.test/two", "https://a.test/two.js"])
        guard case .rendering(let run) = driver.machine.tabs[0].phase else { Issue.record("not rendering"); return }
        #expect(run.requestCount == 2)
    }

    @Test func aSpanThatNeverRunsOutCostsTheTabNotTheRun() throws {
        var driver = Driver()
        let clock = try Self.loadedPage(&driver)
        driver.feed(.message(.reply(id: clock.id, sessionID: "S0", result: .success([:]))))
        driver.pause("R2", url: "https://a.test/slow.json", type: "XHR")
        driver.advance(30)
        let value3 = driver.take("Runtime.evaluate")
        let capture = try #require(value3)
        driver.feed(.message(.reply(id: capture.id, sessionID: "S0",
                                    result: .success(["result": ["type": "string", "value": .string(Self.captured)]]))))
        driver.advance(1)
        #expect(driver.take("Target.closeTarget") == nil)
        driver.advance(1.5)  // past the release timeout: the tab is replaced
        #expect(driver.take("Target.closeTarget") != nil)
        #expect(driver.take("Target.createTarget") != nil)
    }

    @Test func anAnswerAfterTheSpanGivesThePageANewOne() throws {
        var driver = Driver()
        let clock = try Self.loadedPage(&driver)
        driver.feed(.message(.reply(id: clock.id, sessionID: "S0", result: .success([:]))))
        // A worker's request does not hold the page's clock: the span runs out while it is in flight.
        driver.pause("R2", url: "https://a.test/data.json", type: "Fetch")
        let ask = try #require(driver.asks().first)
        driver.feed(Self.expired)
        #expect(driver.take("Runtime.evaluate") == nil, "a request is in flight")
        driver.feed(.answer(token: ask.token, .fulfil(status: 200, headers: [], body: Array("{}".utf8))))
        let value3 = driver.take("Emulation.setVirtualTimePolicy")
        #expect(try #require(value3).params["budget"] == 1000)
        driver.advance(0.01)
        #expect(driver.take("Runtime.evaluate") == nil, "the page is given time to use the answer")
        driver.feed(Self.expired)
        #expect(driver.take("Runtime.evaluate")?.params["expression"]?.string == PageScripts.settle)
    }

    @Test func noTimersMeansTheRealClockOnly() throws {
        var budget = PageBudget()
        budget.timers = 0
        var driver = Driver(budget: budget)
        driver.startReady()
        driver.feed(.submit(job: 1, url: "https://a.test/"))
        let value1 = driver.take("Page.navigate")
        let navigate = try #require(value1)
        driver.feed(.message(.reply(id: navigate.id, sessionID: "S0", result: .success(["frameId": "T0", "loaderId": "L1"]))))
        driver.feed(.message(.event(method: "Page.lifecycleEvent", sessionID: "S0",
                                    params: ["name": "load", "frameId": "T0", "loaderId": "L1"])))
        #expect(driver.take("Emulation.setVirtualTimePolicy") == nil)
        driver.advance(0.2)
        #expect(driver.take("Runtime.evaluate")?.params["expression"]?.string == PageScripts.settle)
    }
}
