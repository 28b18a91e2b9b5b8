import Foundation
import MirrorCore
import MirrorStore

/// The snapshot `current` pointed at when it was last looked at, with what was read from it.
final class SnapshotState {
    /// The link's target text, used to notice a switch.
    let linkTarget: String
    /// The open snapshot folder.
    let directory: SnapshotDirectory
    /// Local path (relative to the snapshot) → recorded `Content-Type`, from the manifest.
    let contentTypes: [String: String]
    /// HTML documents stored, from the manifest.
    let pageCount: Int
    /// When the crawl that made the snapshot finished, from `_mirror/report.json`.
    let lastRefresh: Date?

    init(linkTarget: String, directory: SnapshotDirectory, contentTypes: [String: String], pageCount: Int, lastRefresh: Date?) {
        self.linkTarget = linkTarget
        self.directory = directory
        self.contentTypes = contentTypes
        self.pageCount = pageCount
        self.lastRefresh = lastRefresh
    }
}

/// One served site on the loop thread: resolves `current` once per event-loop iteration and
/// reloads the manifest's type map when the link has been switched by a refresh.
///
/// The link is read again whenever the caller's `epoch` changes; the event loop advances it
/// after every `epoll_wait`, so any request whose bytes arrived after a switch of `current`
/// completed sees the new snapshot, while the requests handled in one wake-up share a single
/// `readlink`. Confined to the event-loop thread.
final class SiteMount {
    let site: ServedSite
    private let linkPath: String
    private var cached: SnapshotState?
    /// The epoch in which `current` was last read, and what that gave.
    private var checkedEpoch: UInt64?
    private var checked: SnapshotState?

    init(site: ServedSite) {
        self.site = site
        linkPath = site.directory + "/" + SnapshotStore.currentLink
    }

    /// The current snapshot, or `nil` when the site has none (yet).
    /// - Parameter epoch: the caller's clock of freshness: `current` is read again when it
    ///   differs from the last call's.
    func currentSnapshot(epoch: UInt64) -> SnapshotState? {
        if checkedEpoch == epoch { return checked }
        let state = readCurrent()
        checkedEpoch = epoch
        checked = state
        return state
    }

    private func readCurrent() -> SnapshotState? {
        let target = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            let length = readlink(linkPath, base, buffer.count - 1)
            guard length > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: length), as: UTF8.self)
        }
        guard let target else {
            cached = nil
            return nil
        }
        if let cached, cached.linkTarget == target { return cached }
        guard let directory = SnapshotDirectory.open(path: linkPath) else {
            cached = nil
            return nil
        }
        let state = Self.load(linkTarget: target, directory: directory)
        cached = state
        return state
    }

    private static func load(linkTarget: String, directory: SnapshotDirectory) -> SnapshotState {
        var types: [String: String] = [:]
        var pages = 0
        if let bytes = directory.readInternal(["_mirror", "manifest.tsv"]),
           let manifest = try? Manifest.decode(bytes, path: "_mirror/manifest.tsv") {
            for entry in manifest {
                guard let local = entry.localPath else { continue }
                if let type = entry.contentType {
                    types[local] = type
                    if type.lowercased().hasPrefix("text/html") || type.lowercased().hasPrefix("application/xhtml") { pages += 1 }
                }
            }
        }
        var finished: Date?
        if let bytes = directory.readInternal(["_mirror", "report.json"], limit: 64 * 1024 * 1024),
           let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
           let text = object["finishedAt"] as? String {
            finished = UTCTime.parseISO8601(text)
        }
        return SnapshotState(linkTarget: linkTarget, directory: directory, contentTypes: types, pageCount: pages, lastRefresh: finished)
    }
}
