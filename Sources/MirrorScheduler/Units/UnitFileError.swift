import MirrorCore

/// Why a unit file or crontab line could not be written.
public enum UnitFileError: DiagnosableError, Equatable {
    /// cron repeats only on intervals that divide an hour or a day evenly; `every` (seconds)
    /// for `site` is not one of them.
    case cronCannotExpress(site: String, every: Double)
    /// The site has no `refresh.every`, so there is nothing to schedule.
    case noInterval(site: String)

    public var category: ErrorCategory { .usage }

    public var summary: String {
        switch self {
        case .cronCannotExpress(let site, let every):
            return "refresh.every \(UnitFiles.timeSpan(every)) of site \(site) cannot be a crontab line: cron only repeats every N minutes dividing an hour, or every N hours dividing a day"
        case .noInterval(let site):
            return "site \(site) has no refresh.every, so it has no schedule"
        }
    }

    public var hint: String {
        switch self {
        case .cronCannotExpress:
            return "use a systemd timer (it takes any interval), run `mtls-mirror schedule` in the foreground, or pick an interval such as 15m, 1h, 6h or 24h"
        case .noInterval:
            return "set sites[].refresh.every in config.json (e.g. \"6h\"), or leave the site out"
        }
    }
}
