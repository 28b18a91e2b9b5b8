/// A refresh Job's `activeDeadlineSeconds`: when the cluster stops a run that has gone on too
/// long (SIGTERM, then SIGKILL after the grace period; a refresh stops cleanly on SIGTERM and
/// the current snapshot stays).
///
/// With a run budget (the site's own limit on a whole run), the deadline is that budget plus a
/// minute, so the tool stops itself first and Kubernetes is only the backstop. Without one, it
/// is derived from the limits that exist: the longer of the interval the CronJob repeats at (a
/// run should end before the next one is due; `concurrencyPolicy: Forbid` skips the next one
/// while it has not) and the longest a single request may take with its retries
/// (`limits.totalTimeout × (limits.retries + 1)`), so that one slow file is not what stops a run.
public struct RunDeadline: Sendable, Equatable {
    /// `activeDeadlineSeconds`.
    public let seconds: Int
    /// Where it came from, for the manifest's comment.
    public let reason: String

    /// The margin given to the tool after its own run budget.
    public static let margin = 60

    /// - Parameters:
    ///   - runBudget: the site's budget for a whole run, in seconds, when the config has one.
    ///   - every: the interval the CronJob repeats at, in seconds.
    ///   - requestTimeout: `limits.totalTimeout`, in seconds.
    ///   - retries: `limits.retries`.
    public init(runBudget: Double?, every: Double, requestTimeout: Double, retries: Int) {
        if let runBudget {
            seconds = Int(runBudget.rounded(.up)) + Self.margin
            reason = "the run budget \(UnitFiles.timeSpan(runBudget)) + \(Self.margin)s"
            return
        }
        let request = requestTimeout * Double(retries + 1)
        if request > every {
            seconds = Int(request.rounded(.up))
            reason = "no run budget is set: limits.totalTimeout \(UnitFiles.timeSpan(requestTimeout)) × (retries \(retries) + 1), longer than the interval"
        } else {
            seconds = Int(every.rounded(.up))
            reason = "no run budget is set: the interval \(UnitFiles.timeSpan(every))"
        }
    }
}
