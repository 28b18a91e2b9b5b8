/// One tab of the browser, as ``BrowserMachine`` sees it.
struct Tab: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        /// `Target.createTarget` sent.
        case creating
        /// `Target.attachToTarget` sent.
        case attaching
        /// The session's domains are being enabled; `waiting` replies to go.
        case configuring(waiting: Int)
        /// Showing `about:blank`, free for a page.
        case ready
        case rendering(PageRun)
        /// A page is over but its span of page time still runs (``PageClock``): its expiry is
        /// awaited before the clock is let go, or a late expiry would stop the clock of the next
        /// page in this tab. Past `deadline` the tab is replaced instead.
        case releasing(deadline: Double)
        /// Going back to `about:blank` after a page.
        case resetting
        /// Closed (crashed, or the machine stopped); replaced by a new tab if needed.
        case closed
    }

    /// The position among the machine's tabs.
    let index: Int
    var targetID: String?
    var sessionID: String?
    var phase: Phase = .creating
    /// Bumped for every page and every replacement, so that late replies are recognised.
    var generation = 0

    init(index: Int) {
        self.index = index
    }
}
