/// A CronJob's `schedule` for a site's `refresh.every`.
///
/// cron repeats evenly only at intervals that divide an hour (`*/15 * * * *`), divide a day
/// (`0 */6 * * *`), or are a day or a week. Any other interval is run at the longest of those
/// that is shorter than it, so a mirror is never older than `refresh.every` asks; the
/// interval used is kept in ``every`` and the change is reported (``wasShortened``).
public struct CronSchedule: Sendable, Equatable {
    /// The five cron fields.
    public let fields: String
    /// The interval the fields repeat at, in seconds.
    public let every: Double
    /// The interval the config asked for, in seconds.
    public let requested: Double

    /// Whether cron could not repeat at the requested interval and a shorter one is used.
    public var wasShortened: Bool { every != requested }

    /// The intervals cron repeats at evenly, shortest first, in seconds.
    public static let intervals: [Double] =
        [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30].map { Double($0) * 60 }
        + [1, 2, 3, 4, 6, 8, 12, 24].map { Double($0) * 3600 }
        + [7 * 86_400]

    /// The schedule for `every` seconds: the longest interval of ``intervals`` not longer
    /// than it (a minute for anything shorter).
    public init(every requested: Double) {
        let every = Self.intervals.last { $0 <= requested } ?? Self.intervals[0]
        self.every = every
        self.requested = requested
        self.fields = every == 7 * 86_400 ? "0 0 * * 0" : UnitFiles.cronFields(every: every) ?? "* * * * *"
    }
}
