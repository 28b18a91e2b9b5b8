/// What rendering one page gave: its DOM as the browser built it, and how the page ended.
public struct RenderedPage: Sendable, Equatable {
    /// The page's URL (the document's URL when the page was captured).
    public var url: String
    /// The DOM serialised with its doctype, as UTF-8: `<!DOCTYPE …>` and the root element's
    /// `outerHTML`. Its `<meta charset>` says `utf-8` (one is added when the page had none),
    /// because these are the bytes stored.
    public var html: [UInt8]
    /// The DOMs of the same-origin frames (nested ones too), in document order.
    public var frames: [RenderedFrame]
    /// Whether the page went quiet, or a budget ended it first.
    public var completion: Completion
    /// Requests the page made (the document included).
    public var requestCount: Int
    /// Response body bytes given to the page.
    public var bodyBytes: Int64
    /// Main-frame navigations the page tried by script (`location = …`): refused, and
    /// reported so that the caller can follow them as links.
    public var navigations: [String]
    /// Seconds from the first navigation to the capture.
    public var seconds: Double

    /// A rendered page (the render layer makes them; tests build their own).
    public init(url: String, html: [UInt8], frames: [RenderedFrame], completion: Completion, requestCount: Int,
                bodyBytes: Int64, navigations: [String], seconds: Double) {
        self.url = url
        self.html = html
        self.frames = frames
        self.completion = completion
        self.requestCount = requestCount
        self.bodyBytes = bodyBytes
        self.navigations = navigations
        self.seconds = seconds
    }

    /// How a page's rendering ended.
    public enum Completion: Sendable, Equatable {
        /// It loaded and the network stayed quiet for the quiet period.
        case idle
        /// A budget ended it; what had been rendered by then was kept.
        case budgetCut(BudgetLimit)

        /// True when a budget ended the page.
        public var isBudgetCut: Bool {
            if case .budgetCut = self { return true }
            return false
        }
    }

    /// The per-page budget that ran out (``PageBudget``).
    public enum BudgetLimit: String, Sendable, Equatable, CaseIterable {
        /// The page was still loading or busy when its time ran out.
        case time
        /// The page asked for more requests than allowed; the rest were refused.
        case requests
        /// The page received as many body bytes as allowed; the rest were refused.
        case bytes
        /// A script kept the page busy: it was stopped so that the DOM could be read.
        case script
    }
}

/// The DOM of one same-origin frame.
public struct RenderedFrame: Sendable, Equatable {
    /// The frame document's URL.
    public var url: String
    /// Its DOM with doctype, as UTF-8 (as ``RenderedPage/html``).
    public var html: [UInt8]

    /// A frame's DOM.
    public init(url: String, html: [UInt8]) {
        self.url = url
        self.html = html
    }
}

/// The bounds of one page's rendering. A page that never goes idle, an endless stream of
/// requests, a huge response and a looping script all end within them.
public struct PageBudget: Sendable, Equatable {
    /// Seconds from navigation to capture at most; then the DOM as it is is kept.
    public var time: Double
    /// Seconds without a request in flight, after the load event, before the page is done.
    public var quiet: Double
    /// Requests a page may make (the document included); more are refused.
    public var maximumRequests: Int
    /// Response body bytes a page may receive in all; more are refused.
    public var maximumBytes: Int64
    /// Seconds to wait for the DOM once asked for; a page still busy then is stopped
    /// (`Runtime.terminateExecution`) and asked once more.
    public var capture: Double
    /// Seconds of the page's own clock (Chromium's virtual time) that its timers get after the
    /// load event, and again after the settle script; 0: the page runs on the real clock only.
    ///
    /// The page's clock stands still while any of its requests is in flight and jumps to the
    /// next timer when the page is idle, so a page is done as soon as the work its timers
    /// schedule within this span is over, however long their delays (Chromium says so with
    /// `Emulation.virtualTimeBudgetExpired`), instead of after ``quiet`` of real time. The quiet
    /// period stays the fallback: for a page that keeps its thread busy, or a browser that
    /// refuses virtual time.
    public var timers: Double

    /// The defaults. The quiet period (150 ms) covers the gap between a response and the
    /// request a script makes from it (a few milliseconds on the fixtures) with room for short
    /// timers; raise it for pages that debounce their requests. 1 s of page time for timers
    /// covers debounces and short polling loops in a few milliseconds. 15 s, 500 requests and
    /// 64 MiB bound a page whatever it does.
    public init(time: Double = 15, quiet: Double = 0.15, maximumRequests: Int = 500,
                maximumBytes: Int64 = 64 * 1024 * 1024, capture: Double = 2, timers: Double = 1) {
        self.time = time
        self.quiet = quiet
        self.maximumRequests = maximumRequests
        self.maximumBytes = maximumBytes
        self.capture = capture
        self.timers = timers
    }
}
