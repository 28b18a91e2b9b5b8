import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SnapshotStore {
    /// Removes the `.partial-*` folders that runs left behind.
    ///
    /// Call it ONLY while holding the site's ``SiteLock``: without the lock, a `.partial-`
    /// folder may belong to a run that is still writing it.
    /// - Returns: the removed folder names.
    /// - Throws: ``StoreError/io(operation:path:errno:)`` for the first folder that cannot be
    ///   removed; folders before it are gone.
    @discardableResult
    public func cleanLeftovers() throws(StoreError) -> [String] {
        var removed: [String] = []
        for name in leftoverIDs() {
            try removeTree(snapshotsPath + "/" + name)
            removed.append(name)
        }
        return removed
    }

    /// Deletes the oldest published snapshots so that at most `keep` remain, never the current
    /// one.
    ///
    /// The current snapshot always counts as one of the `keep`; the others kept are the newest.
    /// Call it while holding the site's ``SiteLock``.
    /// - Parameter keep: snapshots to keep; values below 1 are taken as 1.
    /// - Returns: the deleted ids, oldest first.
    /// - Throws: ``StoreError/io(operation:path:errno:)`` for the first snapshot that cannot be
    ///   removed.
    @discardableResult
    public func retain(keep: Int) throws(StoreError) -> [String] {
        let plan = Self.retentionPlan(ids: snapshotIDs(), current: currentID, keep: keep)
        for id in plan { try removeTree(snapshotsPath + "/" + id) }
        if !plan.isEmpty { _ = syncDirectory(snapshotsPath) }
        return plan
    }

    /// Which ids ``retain(keep:)`` deletes: a pure function of the listing.
    /// - Parameters:
    ///   - ids: published ids, in any order.
    ///   - current: the id `current` points at, if any.
    ///   - keep: snapshots to keep (at least 1).
    /// - Returns: the ids to delete, oldest first.
    public static func retentionPlan(ids: [String], current: String?, keep: Int) -> [String] {
        let sorted = ids.sorted()
        var kept: Set<String> = []
        if let current, sorted.contains(current) { kept.insert(current) }
        for id in sorted.reversed() where kept.count < max(1, keep) { kept.insert(id) }
        return sorted.filter { !kept.contains($0) }
    }

    /// Removes a folder tree without following symbolic links (a link is removed, not its
    /// target).
    func removeTree(_ path: String) throws(StoreError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .io(operation: "lstat", path: path, errno: errno)
        }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw .io(operation: "remove", path: path, errno: EIO)
        }
    }

    func syncDirectory(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }
}
