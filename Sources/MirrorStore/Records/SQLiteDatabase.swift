import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SQLite connection to a database file of the store, owned: opened by
/// ``create(at:in:)``, closed (`sqlite3_close_v2`) when the object goes away.
///
/// The connection is opened with `SQLITE_OPEN_NOMUTEX` (SQLite's multi-thread mode: no mutex
/// of its own around the connection), so it is **not thread-safe**: its owner confines it to
/// one thread at a time, with a lock or an actor (``ManifestRecords`` holds a lock around
/// every use). Its statements (``prepare(_:)``) keep it alive, and are finalized before it
/// closes.
///
/// Every failing SQLite call becomes a ``StoreError``: ``StoreError/diskFull(path:)`` for
/// `SQLITE_FULL` (or an I/O error whose errno is `ENOSPC`/`EDQUOT`), otherwise
/// ``StoreError/database(operation:path:code:message:)`` with SQLite's extended result code
/// (`SQLITE_OPEN_EXRESCODE`) and its own message.
final class SQLiteDatabase {
    /// The `sqlite3*` handle; valid for the object's lifetime.
    let handle: OpaquePointer
    /// The database file's path relative to the store's root, for errors.
    let path: String

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    /// Creates an empty database file (mode 0600, whatever the umask) at `relativePath` below
    /// the store's root, replacing a file already there, and opens it.
    ///
    /// The folders on the way are walked (and created 0700) by ``SecureFileSystem``, refusing
    /// symbolic links; the file is made with `O_CREAT | O_EXCL | O_NOFOLLOW` and `fchmod`, then
    /// opened by SQLite with `SQLITE_OPEN_NOFOLLOW`.
    /// - Parameters:
    ///   - relativePath: the file's path below the root.
    ///   - fileSystem: the store (a staging snapshot).
    /// - Throws: the path errors of ``SecureFileSystem/openDirectory(_:create:)``
    ///   (``StoreError/unsafePath(path:reason:)``, ``StoreError/symlinkRefused(path:)``…),
    ///   ``StoreError/io(operation:path:errno:)`` or ``StoreError/diskFull(path:)`` when the
    ///   file cannot be made, ``StoreError/database(operation:path:code:message:)`` when SQLite
    ///   cannot open it.
    static func create(at relativePath: String, in fileSystem: SecureFileSystem) throws(StoreError) -> SQLiteDatabase {
        let components = try SecureFileSystem.components(of: relativePath)
        let directory = try fileSystem.openDirectory(components: components.dropLast(), create: true)
        let name = components[components.count - 1]
        if unlinkat(directory.descriptor, name, 0) != 0, errno != ENOENT {
            throw StoreError.from(errno: errno, operation: "unlinkat", path: relativePath)
        }
        let descriptor = openat(directory.descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                SecureFileSystem.fileMode)
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "openat", path: relativePath) }
        let modeSet = fchmod(descriptor, SecureFileSystem.fileMode) == 0
        let code = errno
        _ = close(descriptor)
        guard modeSet else {
            _ = unlinkat(directory.descriptor, name, 0)
            throw .io(operation: "fchmod", path: relativePath, errno: code)
        }
        return try open(absolutePath: fileSystem.absolutePath(relativePath), shownAs: relativePath)
    }

    /// Opens an existing database file read-write.
    /// - Parameters:
    ///   - absolutePath: the file.
    ///   - path: the name errors show (relative to the store's root).
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (operation
    ///   `sqlite3_open_v2`).
    static func open(absolutePath: String, shownAs path: String) throws(StoreError) -> SQLiteDatabase {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(absolutePath, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            // Even a failed open returns a handle (unless memory ran out), which holds the message.
            let error = failure("sqlite3_open_v2", code: code, handle: handle, path: path)
            sqlite3_close_v2(handle)
            throw error
        }
        return SQLiteDatabase(handle: handle, path: path)
    }

    /// Runs one or more SQL statements that return no rows worth reading (pragmas, `CREATE`,
    /// `BEGIN`, `COMMIT`).
    /// - Parameter sql: the statements.
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (operation
    ///   `sqlite3_exec`), ``StoreError/diskFull(path:)``.
    func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure("sqlite3_exec of '\(sql)'", code: code) }
    }

    /// Compiles a statement, to be run many times (``SQLiteStatement/reset()`` between runs).
    /// - Parameter sql: one SQL statement; `?NNN` parameters are bound by index.
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (operation
    ///   `sqlite3_prepare_v3`).
    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw failure("sqlite3_prepare_v3 of '\(sql)'", code: code)
        }
        return SQLiteStatement(handle: statement, database: self, sql: sql)
    }

    /// The `rowid` of the row the last successful `INSERT` added (`sqlite3_last_insert_rowid`).
    var lastInsertedRow: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The most memory SQLite has held in this process since the last reset
    /// (`sqlite3_memory_highwater`): the page caches, schemas and statements of every
    /// connection.
    /// - Parameter reset: start a new high-water mark at the current use.
    static func memoryHighwater(reset: Bool) -> Int64 {
        sqlite3_memory_highwater(reset ? 1 : 0)
    }

    /// The typed error for a failed call on this connection.
    func failure(_ operation: String, code: Int32) -> StoreError {
        Self.failure(operation, code: code, handle: handle, path: path)
    }

    /// The typed error for `code`: ``StoreError/diskFull(path:)`` for a full disk, otherwise
    /// ``StoreError/database(operation:path:code:message:)`` with SQLite's message and, for
    /// the codes that come from a system call, its errno.
    static func failure(_ operation: String, code: Int32, handle: OpaquePointer?, path: String) -> StoreError {
        let primary = code & 0xFF
        let fromSystem = primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN || primary == SQLITE_FULL
        let systemErrno = fromSystem ? handle.map { sqlite3_system_errno($0) } ?? 0 : 0
        if primary == SQLITE_FULL || systemErrno == ENOSPC || systemErrno == EDQUOT {
            return .diskFull(path: path)
        }
        var message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? sqlite3_errstr(code).map { String(cString: $0) } ?? "unknown error"
        if systemErrno != 0 {
            message += " (\(StoreError.describe(errno: systemErrno)), errno \(systemErrno))"
        }
        return .database(operation: operation, path: path, code: code, message: message)
    }
}
