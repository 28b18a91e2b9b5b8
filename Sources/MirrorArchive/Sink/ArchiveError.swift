#if canImport(Glibc)
import Glibc
#endif
import MirrorCore

/// Why writing, reading or packaging an archive failed, with the evidence.
public enum ArchiveError: DiagnosableError, Equatable {
    /// A system call failed on `path`.
    case io(operation: String, path: String, errno: Int32)
    /// The disk or quota is full while writing `path`.
    case diskFull(path: String)
    /// zlib refused (`code` is zlib's return code, `message` its text).
    case compression(path: String, code: Int32, message: String)
    /// A WARC file is damaged at `offset`: not a gzip member, or not a WARC record.
    case corrupt(path: String, offset: Int64, reason: String)
    /// The site has no archive to package or replay.
    case noArchive(site: String, folder: String)

    public var category: ErrorCategory {
        switch self {
        case .io, .diskFull, .corrupt: .io
        case .compression: .internal
        case .noArchive: .usage
        }
    }

    public var summary: String {
        switch self {
        case .io(let operation, let path, let code):
            "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .diskFull(let path):
            "no space left on device while writing \(path)"
        case .compression(let path, let code, let message):
            "gzip failed for \(path) (zlib \(code)): \(message)"
        case .corrupt(let path, let offset, let reason):
            "\(path) is damaged at byte \(offset): \(reason)"
        case .noArchive(let site, let folder):
            "site \(site) has no archive (no WARC file in \(folder))"
        }
    }

    public var hint: String {
        switch self {
        case .io(_, _, let code) where code == EACCES || code == EPERM: "check the output folder's owner and permissions"
        case .io: ""
        case .diskFull: "free disk space and run again; the finished WARC files are kept"
        case .compression: "this is unexpected; please report it"
        case .corrupt: "the next run with --warc cuts a damaged end off an unfinished file; a finished file damaged later must be restored from a copy"
        case .noArchive: "mirror it with --warc first (or \"archive\": {\"enabled\": true} in config.json)"
        }
    }

    /// The error for a failed call on `path` (ENOSPC and EDQUOT become ``diskFull(path:)``).
    static func from(errno code: Int32, operation: String, path: String) -> ArchiveError {
        code == ENOSPC || code == EDQUOT ? .diskFull(path: path) : .io(operation: operation, path: path, errno: code)
    }
}
