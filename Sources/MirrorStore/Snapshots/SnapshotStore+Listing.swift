import Foundation

extension SnapshotStore {
    /// The published snapshots, oldest first, with what their reports say.
    ///
    /// Reads each snapshot's `_mirror/report.json` when present (a snapshot without one, or
    /// with an unreadable one, is listed without counts). Needs no lock: it only reads.
    public func list() -> [SnapshotInfo] {
        let current = currentID
        return snapshotIDs().map { id in
            var info = SnapshotInfo(id: id, date: SnapshotInfo.date(fromID: id), isCurrent: id == current)
            if let summary = reportSummary(id: id) {
                info.pages = summary.pages
                info.fetched = summary.fetched
                info.bytes = summary.bytes
                info.failed = summary.failed
                info.fetchedAt = summary.finishedAt
            }
            return info
        }
    }

    /// The part of the crawler's `report.json` that a listing shows.
    private struct ReportSummary: Decodable {
        var pages: Int?
        var fetched: Int?
        var bytes: Int64?
        var failed: Int?
        var finishedAt: Date?
    }

    /// Largest report read; a bigger one is skipped rather than loaded.
    private static let maximumReportSize = 64 << 20

    private func reportSummary(id: String) -> ReportSummary? {
        let path = snapshotsPath + "/" + id + "/_mirror/report.json"
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, size.intValue <= Self.maximumReportSize,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(ReportSummary.self, from: data)
    }
}
