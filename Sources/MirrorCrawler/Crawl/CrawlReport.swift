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

    /// One line for the end of a run.
    public var summaryLine: String {
        let rate = durationSeconds > 0 ? Double(bytes) / durationSeconds : 0
        return "\(site): \(fetched) URLs (\(pages) pages, \(requisites) requisites): \(added) added, \(changed) changed, \(unchanged) unchanged, \(removed) removed, \(failed) failed, "
            + "\(NumberText.byteCount(bytes)) in "
            + NumberText.fixed(durationSeconds, fractionDigits: 1) + " s (" + NumberText.byteCount(Int64(rate)) + "/s)"
            + ", \(outOfScopeCount) out-of-scope links, snapshot \(snapshot)"
    }
}
