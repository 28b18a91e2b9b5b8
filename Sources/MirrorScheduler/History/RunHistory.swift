import Foundation
import MirrorCore
import MirrorStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The log of a site's refresh runs: `<site>/history.jsonl`, one JSON ``RunRecord`` a line,
/// mode 0600, oldest first.
///
/// The store writes the file (``MirrorStore/SecureFileSystem``): appends are one `write(2)` of
/// a whole line with `O_APPEND`. The file is bounded: when it holds more than
/// ``maximumRecords`` lines, the newest ``maximumRecords`` are written atomically over it
/// (temporary file, `fsync`, rename), so a reader sees the old or the new file, never a half one. Write only while holding the site's lock (`SiteLock`); reading needs no lock.
/// A line that cannot be decoded (a run killed mid-write on a full disk) is skipped.
public struct RunHistory: Sendable {
    /// The history file's name inside the site folder.
    public static let fileName = "history.jsonl"

    /// The file's path.
    public let path: String
    /// Lines kept at most.
    public let maximumRecords: Int

    /// A site's history.
    /// - Parameters:
    ///   - siteDirectory: the site's folder (`<output>/<site>`).
    ///   - maximumRecords: lines kept (default 1000, at least 1).
    public init(siteDirectory: String, maximumRecords: Int = 1000) {
        self.path = siteDirectory + "/" + Self.fileName
        self.maximumRecords = max(1, maximumRecords)
    }

    /// Appends one record, then trims the file when it has grown past ``maximumRecords``.
    /// - Parameter record: the run.
    /// - Throws: ``RunHistoryError/io(operation:path:errno:)``.
    public func append(_ record: RunRecord) throws(RunHistoryError) {
        let line = encode(record)
        do throws(StoreError) {
            let folder = try SecureFileSystem(root: String(path.dropLast(Self.fileName.count + 1)), create: false)
            try folder.appendLine(line, to: Self.fileName)
            let lines = readLines()
            if lines.count > maximumRecords {
                var bytes: [UInt8] = []
                for kept in lines.suffix(maximumRecords) {
                    bytes += kept
                    bytes.append(0x0A)
                }
                try folder.write(bytes, to: Self.fileName)
            }
        } catch {
            throw RunHistoryError(error, path: path)
        }
    }

    /// The newest `last` records, oldest first.
    /// - Parameter last: how many (at most).
    public func load(last: Int = .max) -> [RunRecord] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Self.parseDate(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)"))
            }
            return date
        }
        var records: [RunRecord] = []
        for line in readLines().reversed() {
            guard records.count < last else { break }
            if let record = try? decoder.decode(RunRecord.self, from: Data(line)) { records.append(record) }
        }
        return records.reversed()
    }

    /// One line of the file: the record's JSON, keys sorted, dates with milliseconds (what
    /// `JSONEncoder` with `.sortedKeys` wrote; written by hand, see ``MirrorCore/JSONWriter``).
    func encode(_ record: RunRecord) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.field("bytes", record.bytes)
        json.key("counts")
        json.beginObject()
        json.field("added", record.counts.added)
        json.field("changed", record.counts.changed)
        json.field("failed", record.counts.failed)
        json.field("removed", record.counts.removed)
        json.field("unchanged", record.counts.unchanged)
        json.endObject()
        json.key("durationSeconds")
        json.double(record.durationSeconds)
        json.field("error", record.error)
        json.field("exitCode", record.exitCode)
        json.field("finishedAt", Self.formatDate(record.finishedAt))
        json.field("outcome", record.outcome.rawValue)
        json.field("site", record.site)
        json.field("snapshot", record.snapshot)
        json.field("startedAt", Self.formatDate(record.startedAt))
        json.endObject()
        return json.bytes
    }

    /// The file's non-empty lines (without newlines); empty when it is missing.
    private func readLines() -> [ArraySlice<UInt8>] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return [UInt8](data).split(separator: 0x0A, omittingEmptySubsequences: true)
    }

    /// ISO 8601 UTC with milliseconds: `2027-01-15T08:00:42.500Z`.
    static func formatDate(_ date: Date) -> String {
        UTCTime.iso8601(date, milliseconds: true)
    }

    /// Parses ISO 8601 with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        UTCTime.parseISO8601(text)
    }
}
