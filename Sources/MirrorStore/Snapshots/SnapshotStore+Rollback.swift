import Foundation

extension SnapshotStore {
    /// Points `current` at an earlier (or any other) published snapshot, atomically.
    ///
    /// Take the site's ``SiteLock`` first, so that a rollback cannot race a refresh that is
    /// about to publish. Readers see the old or the new snapshot, never a mix: the switch is one
    /// `rename(2)` of a fresh symlink over `current`.
    /// - Parameter id: the snapshot to make current; `nil` means the one just before the
    ///   current one (by id, which sorts by time).
    /// - Returns: the id `current` now points at.
    /// - Throws: ``SnapshotError/noSuchSnapshot(siteDirectory:id:available:)`` for an unknown
    ///   id, ``SnapshotError/nothingToRollBackTo(siteDirectory:current:)`` when `id` is nil and
    ///   nothing is older than the current snapshot, ``SnapshotError/store(_:)`` when the link
    ///   cannot be switched.
    @discardableResult
    public func rollback(to id: String?) throws(SnapshotError) -> String {
        let ids = snapshotIDs()
        let current = currentID
        let target: String
        if let id {
            guard ids.contains(id) else {
                throw .noSuchSnapshot(siteDirectory: siteDirectory, id: id, available: ids)
            }
            target = id
        } else {
            guard let current, let index = ids.firstIndex(of: current), index > 0 else {
                throw .nothingToRollBackTo(siteDirectory: siteDirectory, current: current)
            }
            target = ids[index - 1]
        }
        do {
            try point(currentAt: target)
        } catch {
            throw .store(error)
        }
        return target
    }
}
