import Foundation
import MirrorCore

/// What a crawl did, written as `_mirror/report.json` in the snapshot and summarised on exit.
public struct CrawlReport: Codable, Sendable {
    public struct Failure: Codable, Sendable, Equatable {
        public var url: String
        /// A stable kind: `http-404`, `server-trust`, `client-certificate-rejected`, `network`,
        /// `timeout`, `too-large`, `robots`, `redirect-out-of-scope`, `io`, …
        public var kind: String
        public var cause: String
        public var referrer: String?
    }

    public var site: String
    public var startURLs: [String]
    public var snapshot: String
    public var startedAt: Date
    public var finishedAt: Date
    public var durationSeconds: Double
    public var finishReason: String
    public var fetched: Int
    public var pages: Int
    public var requisites: Int
    public var failed: Int
    /// Body bytes downloaded (a `304` costs none).
    public var bytes: Int64
    /// Compared with the previous snapshot: new URLs, changed bodies, unchanged (304 or the
    /// same bytes), and URLs that are gone (404/410, or no longer linked).
    public var added: Int
    public var changed: Int
    public var unchanged: Int
    public var removed: Int
    /// The snapshot this run compared against, if any.
    public var previousSnapshot: String?
    public var rewrittenDocuments: Int
    public var errorsByKind: [String: Int]
    public var errors: [Failure]
    /// Links left absolute because they are outside the scope (at most 10,000 listed).
    public var outOfScope: [String]
    /// Out-of-scope links, each URL counted once for every document that links to it (the same
    /// on a first run and on a refresh, which reads them from the manifest).
    public var outOfScopeCount: Int
    public var warnings: [String]
    /// Render mode's part: pages rendered, budget cuts, refused requests (nil without it).
    public var render: RenderSummary? = nil
    /// In-scope page links that a crawler-trap rule (or the depth limit) held back and that
    /// were not fetched by another link (at most ``listLimit`` listed).
    public var heldBack: [HeldBack] = []
    /// How many links were held back, in all and by rule (``MirrorCrawler/TrapRule`` names).
    public var heldBackCount = 0
    public var heldBackByRule: [String: Int] = [:]
    /// URLs the run found but did not fetch because it stopped early (its time budget, a
    /// signal, a limit), sorted (at most ``listLimit`` listed), and how many there were.
    public var notFetched: [String] = []
    public var notFetchedCount = 0
    /// URLs kept from the previous snapshot without being revalidated, because the run stopped
    /// before it reached them (marked stale in the manifest; the next run revalidates them first).
    public var stale = 0
    /// How close the crawl came to each crawler-trap limit (the highest value each rule measured
    /// on a page it let through), to tune the limits by.
    public var trapPeaks = TrapPeaks()

    /// A link a crawler-trap rule held back.
    public struct HeldBack: Codable, Sendable, Equatable {
        public var url: String
        /// The rule's name: `depth`, `path-segments`, `repeated-segment`, `query-variants`,
        /// `growing-value` or `shape-chain`.
        public var rule: String
        /// By how much the link exceeded the rule's limit.
        public var detail: String
        /// The page that linked it.
        public var referrer: String
    }

    /// The most URLs one list of the report holds (the counts are complete).
    public static let listLimit = 10_000

    /// Whether the run stopped before it had fetched everything it found.
    public var stoppedEarly: Bool { finishReason == "runTimeLimit" || finishReason == "interrupted" }
    /// Which proxy the run's requests went through, or "direct" (and any environment proxy
    /// that was ignored).
    public var proxy: String? = nil

    /// One line for the end of a run.
    public var summaryLine: String {
        let rate = durationSeconds > 0 ? Double(bytes) / durationSeconds : 0
        return "\(site): \(fetched) URLs (\(pages) pages, \(requisites) requisites): \(added) added, \(changed) changed, \(unchanged) unchanged, \(removed) removed, \(failed) failed, "
            + "\(NumberText.byteCount(bytes)) in "
            + NumberText.fixed(durationSeconds, fractionDigits: 1) + " s (" + NumberText.byteCount(Int64(rate)) + "/s)"
            + ", \(outOfScopeCount) out-of-scope links"
            + (heldBackCount > 0 ? ", \(heldBackCount) held back by trap rules" : "")
            + (stoppedEarly ? ", stopped early (\(finishReason == "runTimeLimit" ? "run-time budget" : "interrupted")): \(notFetchedCount) not fetched, \(stale) stale" : "")
            + ", snapshot \(snapshot)"
    }
}
