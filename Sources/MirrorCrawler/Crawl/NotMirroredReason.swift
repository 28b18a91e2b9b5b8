/// Why an in-scope URL that the copy links is not in it: what its placeholder page explains
/// (``NotMirroredPage``) and what the manifest records for it.
enum NotMirroredReason: Sendable, Equatable {
    /// Its fetch failed this way; `cause` is the report's one line.
    case failed(FailureKind, cause: String)
    /// It answered 404 or 410 this time, after a 2xx in the previous snapshot.
    case gone(status: Int)
    /// A crawler-trap rule held it back.
    case heldBack(CrawlState.HeldBack)
    /// The run stopped (its time budget, a signal) before fetching it.
    case stopped
    /// Beyond the page or byte limits.
    case beyondLimits

    /// The manifest's `error` field for it (read back by `serve --live`, which treats the
    /// whole `not mirrored: …` family alike).
    var manifestText: String {
        switch self {
        case .failed(let kind, _): "not mirrored: \(kind.name)"
        case .gone(let status): "not mirrored: http-\(status), removed from the origin since the previous snapshot"
        case .heldBack(let held): "not mirrored: held back by the \(held.rule.rawValue) rule"
        case .stopped: "not mirrored: the run stopped before fetching it"
        case .beyondLimits: "not mirrored: beyond the crawl limits"
        }
    }
}
