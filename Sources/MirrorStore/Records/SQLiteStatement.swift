import CSQLite

/// A compiled SQLite statement, owned: made by ``SQLiteDatabase/prepare(_:)``, finalized when
/// the object goes away.
///
/// Bind its parameters (1-based, as SQLite counts them), ``step()`` until it returns false,
/// read the columns of each row (0-based) between steps, and ``reset()`` it to run it again.
/// Bound values are copied by SQLite (`SQLITE_TRANSIENT`), so the caller's buffers may change
/// right after a bind. Confined like its ``SQLiteDatabase``, which it keeps alive.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: SQLiteDatabase
    /// The statement's text, for errors.
    let sql: String

    init(handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// `SQLITE_TRANSIENT`, the destructor value that makes SQLite copy a bound value; the C
    /// macro (`(sqlite3_destructor_type)-1`) cannot be used from Swift.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    /// Binds a 64-bit integer to parameter `index`.
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (`SQLITE_RANGE` for a
    ///   parameter the statement lacks).
    func bind(_ value: Int64, at index: Int32) throws(StoreError) {
        try check(sqlite3_bind_int64(handle, index, value), "sqlite3_bind_int64")
    }

    /// Binds UTF-8 text to parameter `index` (copied).
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (`SQLITE_TOOBIG`,
    ///   `SQLITE_RANGE`).
    func bind(_ text: String, at index: Int32) throws(StoreError) {
        var text = text
        let code = text.withUTF8 { bytes in
            // A nil pointer would bind NULL, not "".
            let start = UnsafeRawPointer(bytes.baseAddress ?? Self.empty.utf8Start).assumingMemoryBound(to: CChar.self)
            return sqlite3_bind_text64(handle, index, start, UInt64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
        }
        try check(code, "sqlite3_bind_text64")
    }

    private static let empty: StaticString = ""

    /// Binds bytes as a blob to parameter `index` (copied).
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (`SQLITE_TOOBIG`,
    ///   `SQLITE_RANGE`).
    func bind(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(StoreError) {
        let code: Int32
        if let start = bytes.baseAddress, bytes.count > 0 {
            code = sqlite3_bind_blob64(handle, index, start, UInt64(bytes.count), Self.transient)
        } else {
            // A nil pointer binds NULL; an empty blob is a zero-length zeroblob.
            code = sqlite3_bind_zeroblob(handle, index, 0)
        }
        try check(code, "sqlite3_bind_blob64")
    }

    /// Binds an array of bytes as a blob; see ``bind(_:at:)-(UnsafeRawBufferPointer,_)``.
    /// - Throws: as ``bind(_:at:)-(UnsafeRawBufferPointer,_)``.
    func bind(_ bytes: [UInt8], at index: Int32) throws(StoreError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(StoreError) in try bind(UnsafeRawBufferPointer(buffer), at: index) }
    }

    /// Runs the statement to its next row.
    /// - Returns: true when a row is there to read, false when the statement is done.
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (operation
    ///   `sqlite3_step`, with the statement), ``StoreError/diskFull(path:)``.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.failure("sqlite3_step of '\(sql)'", code: code)
        }
    }

    /// Column `column` of the current row as a 64-bit integer.
    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// Column `column` of the current row as text (invalid UTF-8 repaired).
    func text(at column: Int32) -> String {
        guard let start = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Column `column` of the current row as bytes, without a copy: the buffer is SQLite's
    /// and valid only until the next ``step()``, ``reset()`` or column call.
    func blob(at column: Int32) -> UnsafeRawBufferPointer {
        guard let start = sqlite3_column_blob(handle, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// Column `column` of the current row as an array of bytes (copied).
    func bytes(at column: Int32) -> [UInt8] {
        Array(blob(at: column))
    }

    /// Makes the statement ready to run again; the bindings stay. (`sqlite3_reset` returns the
    /// last step's error again, which ``step()`` has thrown already.)
    func reset() {
        sqlite3_reset(handle)
    }

    /// - Throws: ``StoreError/database(operation:path:code:message:)`` unless `code` is `SQLITE_OK`.
    private func check(_ code: Int32, _ operation: String) throws(StoreError) {
        guard code == SQLITE_OK else { throw database.failure("\(operation) of '\(sql)'", code: code) }
    }
}
