/// How a refresh run ended, as the scheduler and the run history see it.
public enum RunOutcome: String, Sendable, Codable, Equatable, CaseIterable {
    /// Published, nothing failed.
    case success
    /// Published, but some URLs failed (exit 10).
    case partial
    /// Nothing was published (any other exit).
    case failed

    /// The outcome of a `refresh` process's exit status: 0 success, 10 partial, else failed.
    /// - Parameter exitStatus: the child's exit code.
    public init(exitStatus: Int32) {
        switch exitStatus {
        case 0: self = .success
        case 10: self = .partial
        default: self = .failed
        }
    }
}
