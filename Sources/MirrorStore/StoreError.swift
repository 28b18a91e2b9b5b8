#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import MirrorCore

/// A failure of the on-disk store: file-system calls, unsafe paths and manifest files.
public enum StoreError: DiagnosableError, Equatable {
    /// A system call failed. `operation` names the call (`openat`, `write`, `renameat`…),
    /// `path` the file relative to the store's root (or absolute for the root itself).
    case io(operation: String, path: String, errno: Int32)
    /// The disk or the quota is full (`ENOSPC`/`EDQUOT`) while writing `path`.
    case diskFull(path: String)
    /// A path component is a symbolic link; the store never follows links.
    case symlinkRefused(path: String)
    /// A path component that must be a directory is something else.
    case notADirectory(path: String)
    /// A relative path was refused before touching the disk (empty, absolute, `..`, NUL…).
    case unsafePath(path: String, reason: String)
    /// A manifest file is malformed or truncated at `line` (1-based).
    case manifestCorrupt(path: String, line: Int, reason: String)
    /// A streaming writer was used after it was committed or aborted.
    case writerFinished(path: String)
    /// An SQLite call failed on the database at `path` (relative to the store's root):
    /// `operation` names the call or the statement's purpose (`sqlite3_open_v2`, `upsert`…),
    /// `code` is SQLite's extended result code and `message` its own text
    /// (`sqlite3_errmsg`), with the system's errno when SQLite saw one. A full disk is
    /// ``diskFull(path:)`` instead.
    case database(operation: String, path: String, code: Int32, message: String)

    public var category: ErrorCategory {
        switch self {
        case .writerFinished: return .internal
        default: return .io
        }
    }

    public var summary: String {
        switch self {
        case .io(let operation, let path, let code):
            return "\(operation) failed for '\(path)': \(StoreError.describe(errno: code)) (errno \(code))"
        case .diskFull(let path):
            return "no space left on device while writing '\(path)'"
        case .symlinkRefused(let path):
            return "refusing to follow the symbolic link '\(path)' in the output folder"
        case .notADirectory(let path):
            return "'\(path)' in the output folder should be a directory but is not"
        case .unsafePath(let path, let reason):
            return "unsafe store path '\(path)': \(reason)"
        case .manifestCorrupt(let path, let line, let reason):
            return "manifest '\(path)' is corrupt at line \(line): \(reason)"
        case .writerFinished(let path):
            return "file writer for '\(path)' was used after commit or abort"
        case .database(let operation, let path, let code, let message):
            return "SQLite \(operation) failed for '\(path)': \(message) (SQLite code \(code))"
        }
    }

    public var hint: String {
        switch self {
        case .io(_, _, let code) where code == EACCES || code == EPERM:
            return "check the output folder's owner and permissions"
        case .io:
            return ""
        case .diskFull:
            return "free disk space (or raise the quota) and run again; finished files are kept"
        case .symlinkRefused, .notADirectory:
            return "remove the unexpected entry from the output folder"
        case .unsafePath:
            return "this is a bug in path mapping; please report the URL"
        case .manifestCorrupt:
            return "delete the manifest to start a fresh mirror, or restore it from a backup"
        case .writerFinished:
            return "this is a bug; please report it"
        case .database(_, _, let code, _):
            switch code & 0xFF {
            case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
                return "check the output folder's owner and permissions"
            case SQLITE_MISUSE, SQLITE_CONSTRAINT, SQLITE_ERROR, SQLITE_RANGE:
                return "this is a bug; please report it"
            default:
                return "the database is a run's scratch file, made again by the next run; check the disk if this repeats"
            }
        }
    }

    /// The C library's text for an errno value.
    static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "unknown error" }
        return String(cString: text)
    }
}
