import Foundation

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
    public var bytes: Int64
    public var rewrittenDocuments: Int
    public var errorsByKind: [String: Int]
    public var errors: [Failure]
    /// Links left absolute because they are outside the scope (at most 10,000 listed).
    public var outOfScope: [String]
    public var outOfScopeCount: Int
    public var warnings: [String]

    /// One line for the end of a run.
    public var summaryLine: String {
        let rate = durationSeconds > 0 ? Double(bytes) / durationSeconds : 0
        return "\(site): \(fetched) fetched (\(pages) pages, \(requisites) requisites), \(failed) failed, "
            + "\(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .binary)) in "
            + String(format: "%.1f s (%@/s)", durationSeconds, ByteCountFormatter.string(fromByteCount: Int64(rate), countStyle: .binary))
            + ", \(outOfScopeCount) out-of-scope links, snapshot \(snapshot)"
    }
}
