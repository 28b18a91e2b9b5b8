import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The log of a site's refresh runs: `<site>/history.jsonl`, one JSON ``RunRecord`` a line,
/// mode 0600, oldest first.
///
/// Appends are one `write(2)` of a whole line with `O_APPEND`. The file is bounded: when it
/// holds more than ``maximumRecords`` lines, the newest ``maximumRecords`` are written to a
/// temporary file that is renamed over it, so a reader sees the old or the new file, never a
/// half one. Write only while holding the site's lock (`SiteLock`); reading needs no lock.
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
    /// - Throws: ``RunHistoryError/encoding(path:)``, ``RunHistoryError/io(operation:path:errno:)``.
    public func append(_ record: RunRecord) throws(RunHistoryError) {
        var line = try encode(record)
        line.append(0x0A)
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw .io(operation: "fchmod", path: path, errno: errno) }
        // A run killed mid-write can leave a last line without its newline; end it first so the
        // new record stays a line of its own.
        if endsInTornLine(descriptor) { line.insert(0x0A, at: 0) }
        try writeAll(descriptor, line)
        let lines = readLines()
        if lines.count > maximumRecords {
            try rewrite(Array(lines.suffix(maximumRecords)))
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

    private func encode(_ record: RunRecord) throws(RunHistoryError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Self.formatDate(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record) else { throw .encoding(path: path) }
        return Array(data)
    }

    /// The file's non-empty lines (without newlines); empty when it is missing.
    private func readLines() -> [ArraySlice<UInt8>] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return [UInt8](data).split(separator: 0x0A, omittingEmptySubsequences: true)
    }

    private func rewrite(_ lines: [ArraySlice<UInt8>]) throws(RunHistoryError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io(operation: "open", path: temporary, errno: errno) }
        var bytes: [UInt8] = []
        for line in lines {
            bytes += line
            bytes.append(0x0A)
        }
        do throws(RunHistoryError) {
            try writeAll(descriptor, bytes)
            guard fsync(descriptor) == 0 else { throw RunHistoryError.io(operation: "fsync", path: temporary, errno: errno) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .io(operation: "rename", path: path, errno: code)
        }
    }

    private func endsInTornLine(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return false }
        var last: UInt8 = 0
        let count = pread(descriptor, &last, 1, off_t(info.st_size - 1))
        return count == 1 && last != 0x0A
    }

    /// ISO 8601 UTC with milliseconds: `2027-01-15T08:00:42.500Z`.
    static func formatDate(_ date: Date) -> String {
        UTCTime.iso8601(date, milliseconds: true)
    }

    /// Parses ISO 8601 with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        UTCTime.parseISO8601(text)
    }

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(RunHistoryError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io(operation: "write", path: path, errno: errno)
            }
            offset += written
        }
    }
}
