import Foundation
import MirrorCore

/// One published snapshot, as `snapshots` lists it.
public struct SnapshotInfo: Sendable, Equatable, Codable {
    /// The folder name under `snapshots/`, e.g. `20260101T120000Z-1a2b3c`.
    public var id: String
    /// When the run that made it started, parsed from the id; `nil` for a foreign name.
    public var date: Date?
    /// Whether `current` points at it.
    public var isCurrent: Bool
    /// HTML pages, from `_mirror/report.json` when present.
    public var pages: Int?
    /// URLs fetched (pages and requisites), from the report.
    public var fetched: Int?
    /// Body bytes fetched, from the report.
    public var bytes: Int64?
    /// URLs that failed, from the report.
    public var failed: Int?
    /// When the crawl finished fetching, from the report.
    public var fetchedAt: Date?

    /// Creates a listing entry.
    public init(id: String, date: Date?, isCurrent: Bool, pages: Int? = nil, fetched: Int? = nil,
                bytes: Int64? = nil, failed: Int? = nil, fetchedAt: Date? = nil) {
        self.id = id
        self.date = date
        self.isCurrent = isCurrent
        self.pages = pages
        self.fetched = fetched
        self.bytes = bytes
        self.failed = failed
        self.fetchedAt = fetchedAt
    }

    /// The run's start time encoded in a snapshot id (`yyyyMMdd'T'HHmmss'Z'-suffix`), or `nil`.
    /// - Parameter id: a snapshot id.
    public static func date(fromID id: String) -> Date? {
        let stamp = id.split(separator: "-", maxSplits: 1).first.map(String.init) ?? id
        guard stamp.utf8.count == 16 else { return nil }
        return UTCTime.parseCompactStamp(stamp)
    }
}
