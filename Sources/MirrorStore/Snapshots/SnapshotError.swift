import MirrorCore

/// Why a snapshot operation (``SnapshotStore/rollback(to:)``) could not be done.
public enum SnapshotError: DiagnosableError, Equatable {
    /// No published snapshot has this id. `available` lists the ids there are, oldest first.
    case noSuchSnapshot(siteDirectory: String, id: String, available: [String])
    /// There is no snapshot older than the current one (or no current one at all).
    case nothingToRollBackTo(siteDirectory: String, current: String?)
    /// The file system refused the change; `current` is unchanged.
    case store(StoreError)

    public var category: ErrorCategory {
        switch self {
        case .noSuchSnapshot, .nothingToRollBackTo: return .usage
        case .store(let error): return error.category
        }
    }

    public var summary: String {
        switch self {
        case .noSuchSnapshot(let site, let id, let available):
            return "no snapshot '\(id)' in \(site)/snapshots (\(available.count) published)"
        case .nothingToRollBackTo(let site, let current):
            if let current { return "no snapshot older than the current one (\(current)) in \(site)" }
            return "\(site) has no current snapshot to roll back from"
        case .store(let error):
            return error.summary
        }
    }

    public var hint: String {
        switch self {
        case .noSuchSnapshot(_, _, let available):
            return available.isEmpty ? "mirror the site first" : "run `mtls-mirror snapshots` and pick one of: \(available.suffix(5).joined(separator: ", "))"
        case .nothingToRollBackTo:
            return "give --to ID to switch to a newer snapshot, or run `mtls-mirror snapshots` to see them"
        case .store(let error):
            return error.hint
        }
    }
}
