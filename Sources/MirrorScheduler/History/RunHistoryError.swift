import Foundation
import MirrorCore
import MirrorStore

/// Why the run history could not be written.
public enum RunHistoryError: DiagnosableError, Equatable {
    /// A system call on the history file failed (`open`, `write`, `rename`…).
    case io(operation: String, path: String, errno: Int32)

    /// The store's failure on the history file, with its errno.
    init(_ error: StoreError, path: String) {
        switch error {
        case .io(let operation, _, let code): self = .io(operation: operation, path: path, errno: code)
        case .diskFull: self = .io(operation: "write", path: path, errno: ENOSPC)
        case .symlinkRefused: self = .io(operation: "open", path: path, errno: ELOOP)
        case .notADirectory: self = .io(operation: "open", path: path, errno: ENOTDIR)
        case .unsafePath: self = .io(operation: "open", path: path, errno: EINVAL)
        case .manifestCorrupt, .writerFinished, .database: self = .io(operation: "write", path: path, errno: EIO)
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .io: return .io
        }
    }

    public var summary: String {
        switch self {
        case .io(let operation, let path, let code):
            return "\(operation) failed for the run history '\(path)': \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    public var hint: String {
        switch self {
        case .io(_, _, let code) where code == ENOSPC || code == EDQUOT: return "free disk space; the mirror itself is unaffected"
        case .io: return "check the site folder's owner and permissions"
        }
    }
}
