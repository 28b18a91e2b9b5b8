import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The captures of an archive folder by SURT key, for replay: read from the per-file indexes,
/// and read again when the folder changes (a run renamed a new WARC file into it).
final class ReplayIndex: @unchecked Sendable {
    let folder: String
    private let lock = NSLock()
    private var byKey: [String: [CDXJEntry]] = [:]
    private var loadedStamp: timespec?

    init(folder: String) {
        self.folder = folder
    }

    /// The captures of `url` (any timestamp), oldest first.
    func captures(of url: String) -> [CDXJEntry] {
        refreshIfChanged()
        lock.lock()
        defer { lock.unlock() }
        return byKey[SURT.key(url)] ?? []
    }

    /// The capture of `url` at exactly `timestamp` that is not a revisit.
    func original(of url: String, timestamp: String) -> CDXJEntry? {
        captures(of: url).first { $0.timestamp == timestamp && $0.mime != "warc/revisit" && $0.url == url }
            ?? captures(of: url).first { $0.timestamp == timestamp && $0.mime != "warc/revisit" }
    }

    private func refreshIfChanged() {
        var info = stat()
        guard stat(folder, &info) == 0 else { return }
        let stamp = info.st_mtim
        lock.lock()
        let current = loadedStamp.map { $0.tv_sec == stamp.tv_sec && $0.tv_nsec == stamp.tv_nsec } ?? false
        lock.unlock()
        guard !current else { return }
        let entries = (try? ArchiveFolder.index(of: folder)) ?? []
        var grouped: [String: [CDXJEntry]] = [:]
        // An index names files in this folder only: a name with a slash is not one of ours.
        for entry in entries where !entry.filename.contains("/") && entry.filename.hasSuffix(".warc.gz") {
            grouped[entry.key, default: []].append(entry)
        }
        lock.lock()
        byKey = grouped
        loadedStamp = stamp
        lock.unlock()
    }
}
