/// Render mode's part of a run's report (`_mirror/report.json`, `render`).
public struct RenderSummary: Codable, Sendable, Equatable {
    /// A page whose budget ended it: what was rendered by then was kept.
    public struct BudgetCut: Codable, Sendable, Equatable {
        /// The page.
        public var url: String
        /// `time`, `requests`, `bytes` or `script` (``MirrorRender/RenderedPage/BudgetLimit``).
        public var limit: String
    }

    /// A request of a rendered page that was never sent to the network.
    public struct Refused: Codable, Sendable, Equatable {
        /// What the page asked for.
        public var url: String
        /// Why it was not sent (`out of scope: …`, `disallowed by robots.txt`, …).
        public var reason: String
        /// The page that made it.
        public var page: String
    }

    /// How the browser was isolated: `private network, sandboxed` or `private network, no sandbox`.
    public var isolation: String
    /// `neutralise` or `keep`.
    public var scripts: String
    /// Pages loaded in the browser this run.
    public var rendered: Int
    /// Rendered pages kept from the previous snapshot: neither their document nor anything
    /// they loaded had changed.
    public var unchanged: Int
    /// Pages the browser could not render (stored as fetched; also in the report's errors).
    public var failed: Int
    /// Pages a budget ended, with the budget.
    public var budgetCut: [BudgetCut]
    /// Requests refused (out of scope, robots.txt, a method or kind never sent), counted.
    public var refusedCount: Int
    /// The first 1,000 of them.
    public var refused: [Refused]
    /// Requests of rendered pages that the origin failed to answer (network errors).
    public var failedRequests: Int
    /// Responses given to pages from this run's render cache instead of the origin.
    public var cacheHits: Int
    /// Seconds the browser spent on pages, summed over pages.
    public var seconds: Double
    /// Browsers started (1, plus one per crash).
    public var browserStarts: Int
}
