extension CrawlState {
    /// One crawl worker's loop: takes the next URL, hands it to `fetch`, and goes on until the
    /// frontier finishes.
    ///
    /// `fetch` returns the worker's next action when it recorded its outcome together with
    /// asking for one (``storedThenNext(_:finalURL:localPath:response:links:documentKind:change:rewrite:originalOnly:robotsAgent:)``),
    /// or nil; the loop asks itself then.
    ///
    /// Cancellation (of the calling task) cancels the frontier. A URL that was handed out
    /// before the worker saw the cancellation is in flight: it is failed (`cancelled`), or the
    /// frontier would wait for it for ever and the run would never end.
    nonisolated func runWorker(robotsAgent: String?, fetch: (FrontierItem) async -> FrontierAction?) async {
        var action = await nextAction(robotsAgent: robotsAgent)
        while true {
            if Task.isCancelled {
                await cancel()
                if case .fetch(let item) = action {
                    await failed(item, .init(kind: .cancelled, cause: "the run was cancelled"))
                }
                action = await nextAction(robotsAgent: robotsAgent)
            }
            switch action {
            case .fetch(let item):
                if let next = await fetch(item) {
                    action = next
                } else {
                    action = await nextAction(robotsAgent: robotsAgent)
                }
            case .wait:
                action = await nextAction(robotsAgent: robotsAgent)  // nextAction() parks rather than answer .wait
            case .finished:
                return
            }
        }
    }
}
