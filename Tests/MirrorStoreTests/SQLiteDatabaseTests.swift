import CSQLite
import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorStore

/// `SQLiteDatabase` and `SQLiteStatement`: every failure a typed error with SQLite's own
/// message, values bound and read back as they were.
@Suite struct SQLiteDatabaseTests {
    @Test("SQLite is linked in from Debian's static archive: the test binary, linked like the tool, names no libsqlite3")
    func linkedFromTheStaticArchive() throws {
        #if os(Linux)
        let needed = try RuntimeLibraries.neededByThisBinary()
        #expect(needed.contains { $0.contains("libssl.so.3") }, "the check reads NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("libsqlite3") }, "\(needed)")
        let maps = try RuntimeLibraries.processMaps()
        #expect(!maps.contains("/libsqlite3.so"), "libsqlite3.so is mapped into the process")
        #endif
        #expect(String(cString: sqlite3_libversion()).hasPrefix("3."))
    }

    @Test func aFileThatIsNotADatabaseGivesSQLitesMessage() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        try store.write(Array(repeating: UInt8(ascii: "x"), count: 4096), to: "junk.sqlite")
        let database = try SQLiteDatabase.open(absolutePath: store.absolutePath("junk.sqlite"), shownAs: "junk.sqlite")
        do {
            try database.execute("CREATE TABLE t(x)")
            Issue.record("a file of x's was taken for a database")
        } catch {
            #expect(error == .database(operation: "sqlite3_exec of 'CREATE TABLE t(x)'", path: "junk.sqlite", code: SQLITE_NOTADB,
                                       message: "file is not a database"))
            #expect(error.summary == "SQLite sqlite3_exec of 'CREATE TABLE t(x)' failed for 'junk.sqlite': file is not a database (SQLite code 26)")
            #expect(error.hint.contains("scratch"))
        }
        // A missing folder: SQLite cannot open the file, and says which errno.
        do {
            _ = try SQLiteDatabase.open(absolutePath: folder.path + "/missing/x.sqlite", shownAs: "missing/x.sqlite")
            Issue.record("opened a file in a missing folder")
        } catch {
            guard case .database(let operation, _, let code, let message) = error else { throw error }
            #expect(operation == "sqlite3_open_v2" && code & 0xFF == SQLITE_CANTOPEN, "\(error)")
            #expect(message.contains("errno \(ENOENT)"), "\(message)")
        }
        #expect(SQLiteDatabase.failure("sqlite3_step", code: SQLITE_FULL, handle: nil, path: "m.sqlite") == .diskFull(path: "m.sqlite"))
    }

    @Test func statementsBindAndReadEveryTypeAndRefuseBadSQL() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let database = try SQLiteDatabase.create(at: "s.sqlite", in: store)
        let statement = try database.prepare("SELECT ?1, ?2, ?3, typeof(?2), typeof(?3)")
        try statement.bind(Int64.min, at: 1)
        try statement.bind("", at: 2)
        try statement.bind([UInt8](), at: 3)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == .min)
        #expect(statement.text(at: 3) == "text" && statement.text(at: 4) == "blob")
        #expect(statement.bytes(at: 2) == [])
        #expect(try !statement.step())
        statement.reset()
        try statement.bind("caf\u{E9}\t\0x", at: 2)
        try statement.bind([0, 255, 10], at: 3)
        #expect(try statement.step())
        #expect(statement.text(at: 1) == "caf\u{E9}\t\0x")
        #expect(statement.bytes(at: 2) == [0, 255, 10])
        statement.reset()
        #expect(throws: StoreError.database(operation: "sqlite3_bind_int64 of 'SELECT ?1, ?2, ?3, typeof(?2), typeof(?3)'",
                                            path: "s.sqlite", code: SQLITE_RANGE, message: "column index out of range")) {
            try statement.bind(1, at: 4)
        }
        do {
            _ = try database.prepare("SELEKT 1")
            Issue.record("bad SQL compiled")
        } catch {
            guard case .database(let operation, _, let code, let message) = error else { throw error }
            #expect(operation == "sqlite3_prepare_v3 of 'SELEKT 1'" && code == SQLITE_ERROR && message.contains("syntax error"), "\(error)")
        }
    }
}
