import Foundation
import MirrorCore

/// Why a site's lock could not be taken.
public enum SiteLockError: DiagnosableError, Equatable {
    /// Another process holds `<site>/.lock`. `pid` and `since` come from the holder's note in
    /// the file; they are `nil` when the holder wrote none (e.g. `flock(1)` from a script).
    case lockHeld(site: String, pid: Int32?, since: Date?)
    /// The site's folder (or one of its missing parents, `path`) could not be created.
    case siteFolder(path: String, errno: Int32)
    /// A system call on the lock file failed (`open`, `flock`, `ftruncate`, `pwrite`).
    case io(operation: String, path: String, errno: Int32)

    public var category: ErrorCategory { .io }

    public var summary: String {
        switch self {
        case .lockHeld(let site, let pid, let since):
            let who = pid.map { "pid \($0)" } ?? "pid unknown"
            let when = since.map { ", since \(Self.format($0))" } ?? ""
            return "another refresh of \(site) is running (\(who)\(when))"
        case .siteFolder(let path, let code):
            return "cannot create the folder '\(path)': \(String(cString: strerror(code))) (errno \(code))"
        case .io(let operation, let path, let code):
            return "\(operation) failed for the lock file '\(path)': \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    public var hint: String {
        switch self {
        case .lockHeld: return "wait for it, or stop it"
        case .siteFolder(_, let code) where code == ENOSPC || code == EDQUOT:
            return "free space on the output folder's file system"
        case .siteFolder: return "check the output folder's path and permissions"
        case .io(_, _, let code) where code == EACCES || code == EPERM:
            return "check the owner and permissions of the output folder"
        case .io: return ""
        }
    }

    static func format(_ date: Date) -> String {
        UTCTime.iso8601(date)
    }
}
