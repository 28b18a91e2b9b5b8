import CSQLite
import MirrorCore
import Foundation

/// A run's manifest entries on disk, so that a crawl's memory stays flat whatever the site's
/// size (issue #27): a ``Manifest`` holds about 2 KB a URL in memory, these records 4 bytes
/// a URL and SQLite's 2 MiB page cache.
///
/// The entries live in a scratch SQLite database inside the staging snapshot (the crawler
/// uses `_mirror/tmp/manifest.sqlite`), one row per entry: its URL and its manifest line
/// already encoded (``Manifest/appendLine(_:to:)``, the one encoding ``Manifest/save(to:at:)``
/// uses too). ``save(to:at:)`` writes the rows in URL order, which makes the manifest file
/// byte for byte.
///
/// Rows are appended in the order they come (SQLite numbers them), and an array maps the
/// caller's ids to those numbers, 4 bytes an id: keyed by id instead, a table larger than the
/// page cache took a random page read and write per upsert whenever ids came out of order
/// (10.7 µs against 3.6 µs an upsert for 100,000 rows of 570 bytes in random order, measured
/// with SQLite alone).
///
/// The database is thrown away if the run dies, so it is tuned for speed, not durability: no
/// journal, no sync, an exclusive lock, a 2 MiB page cache (memory stays bounded however many
/// rows), temporary data in files, no memory map (mapped pages would count as the process's
/// memory). Inserts run inside one transaction that is committed every
/// ``rowsPerTransaction`` rows and before the rows are read in order; reads on this
/// connection see every upsert, committed or not.
///
/// An unchanged refresh writes most entries as the previous snapshot had them, with a new
/// fetch time: ``carry(_:id:)`` keeps such an entry as the number of its line in the previous
/// manifest (``carryLines(from:)``) and its new time, 12 bytes, instead of a row; ``save(to:at:)``
/// merges those lines, read in file order, with the rows, in the same URL order. On the
/// generated 2,000-page site's unchanged refresh (4,692 revalidations), storing every entry as
/// a row took 45–57 ms of the run's 450 (issue #27).
///
/// Thread-safe: every call holds a lock (the SQLite connection itself is confined to it).
/// ``forEachSorted(_:)``'s body may call ``count`` and ``entry(id:)``, but not change the
/// records.
public final class ManifestRecords: @unchecked Sendable {
    /// The database file's path below the store's root.
    public let relativePath: String
    /// Nil for ``inMemory()``.
    private let fileSystem: SecureFileSystem?
    /// Recursive, so that ``forEachSorted(_:)``'s body can read (and a change it attempts
    /// fails with an error instead of a deadlock).
    private let lock = NSRecursiveLock()
    /// The connection and its statements; nil once ``remove()`` has run.
    private var connection: Connection?
    /// Each id's row number (SQLite's `rowid`), 0 when the id has no entry. Ids are dense (the
    /// crawler numbers its URLs 0, 1, 2…), so this is 400 KB for 100,000 URLs, and ``count``
    /// needs no query.
    private var rows = ChunkedArray<UInt32>()
    private var storedCount = 0
    private var uncommittedRows = 0
    private var inTransaction = false
    /// The line being upserted, reused.
    private var line: [UInt8] = []
    /// Set while ``forEachSorted(_:)`` runs its body.
    private var iterating = false
    /// Set when ``remove()`` was called from inside ``forEachSorted(_:)``'s body.
    private var removeAfterIterating = false
    /// The previous manifest whose lines ``carry(_:id:)`` keeps (``carryLines(from:)``).
    private var source: ManifestIndex?
    /// Per line of ``source``: the fetch time its carried entry gets (seconds since the
    /// reference date), NaN when the line is not carried.
    private var carriedAt = ChunkedArray<Double>()
    /// A value of ``rows`` with this bit set is a carried line's number, not a row.
    static let carriedBit: UInt32 = 1 << 31

    /// Rows inserted between commits. With no journal a commit only writes the dirty pages
    /// out, so the number matters little: with SQLite alone, 100,000 rows of 1.5 KB took 3.8,
    /// 3.7 and 3.7 µs each committed every 1,000, every 10,000 or once, and 6.2 µs with a
    /// commit per row.
    static let rowsPerTransaction = 10_000
    /// How far past the ids seen so far a new id may be: the id table grows to the largest id,
    /// so a stray huge one would cost gigabytes instead of failing. The crawler's ids are its
    /// URL numbers, and one page can number millions of links before any of them gets an entry
    /// (links beyond the depth limit get theirs when paths are reserved), so the bound is wide:
    /// 16 million ids, a 64 MiB table at most.
    public static let largestIdJump = 1 << 24
    /// The page cache: `cache_size=-2048` is 2 MiB.
    static let cacheKibibytes = 2048

    /// The database and its statements, prepared once (a class: one reference to pass around).
    private final class Connection {
        let database: SQLiteDatabase
        let insert: SQLiteStatement
        let update: SQLiteStatement
        let select: SQLiteStatement
        let sorted: SQLiteStatement

        /// Prepares the statements.
        /// - Throws: ``StoreError/database(operation:path:code:message:)``.
        init(database: SQLiteDatabase) throws(StoreError) {
            self.database = database
            insert = try database.prepare("INSERT INTO entry(url, row) VALUES(?1, ?2)")
            update = try database.prepare("UPDATE entry SET url = ?1, row = ?2 WHERE rowid = ?3")
            select = try database.prepare("SELECT row FROM entry WHERE rowid = ?1")
            sorted = try database.prepare(ManifestRecords.sortedSQL)
        }
    }

    private init(relativePath: String, fileSystem: SecureFileSystem?, connection: Connection) {
        self.relativePath = relativePath
        self.fileSystem = fileSystem
        self.connection = connection
    }

    /// Creates the database (mode 0600) at `relativePath` inside `fileSystem`, replacing a
    /// leftover file.
    /// - Parameters:
    ///   - fileSystem: the store, a staging snapshot.
    ///   - relativePath: the file's path below its root; the crawler passes
    ///     `_mirror/tmp/manifest.sqlite`. Missing folders are created (0700).
    /// - Throws: the path errors of ``SecureFileSystem`` (``StoreError/unsafePath(path:reason:)``,
    ///   ``StoreError/symlinkRefused(path:)``, ``StoreError/notADirectory(path:)``),
    ///   ``StoreError/io(operation:path:errno:)`` (`EACCES` in a read-only folder),
    ///   ``StoreError/diskFull(path:)``, ``StoreError/database(operation:path:code:message:)``.
    public static func create(in fileSystem: SecureFileSystem, at relativePath: String) throws(StoreError) -> ManifestRecords {
        let database = try SQLiteDatabase.create(at: relativePath, in: fileSystem)
        try database.execute(setupSQL)
        let connection = try Connection(database: database)
        return ManifestRecords(relativePath: relativePath, fileSystem: fileSystem, connection: connection)
    }

    /// Records in an in-memory database (SQLite's `:memory:`), for tests and for callers
    /// without a staging snapshot.
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (only when memory is
    ///   exhausted).
    public static func inMemory() throws(StoreError) -> ManifestRecords {
        let database = try SQLiteDatabase.open(absolutePath: ":memory:", shownAs: "(memory)")
        try database.execute(setupSQL)
        return ManifestRecords(relativePath: "(memory)", fileSystem: nil, connection: try Connection(database: database))
    }

    /// The scratch database's settings and its one table.
    ///
    /// The `url` column is the sort key of ``save(to:at:)`` and ``forEachSorted(_:)``: SQLite's
    /// BINARY collation compares UTF-8 bytes (memcmp), and for text in NFC that is the order of
    /// Unicode scalars, which is Swift's `String` order, the order of `Manifest.sortedKeys`.
    /// Normalised URLs are ASCII (so NFC already), except for a host with non-ASCII letters,
    /// which ``sortKey(of:)`` stores in NFC. UNIQUE gives the `ORDER BY` an index to walk (no
    /// sort of the whole table in temporary files; a test checks the query plan), and refuses
    /// a URL upserted under a second id, which would put it twice in the file. Rows have
    /// SQLite's own `rowid`, in the order they were added.
    static let setupSQL = """
        PRAGMA journal_mode=OFF;
        PRAGMA synchronous=OFF;
        PRAGMA locking_mode=EXCLUSIVE;
        PRAGMA temp_store=FILE;
        PRAGMA mmap_size=0;
        PRAGMA cache_size=-\(cacheKibibytes);
        CREATE TABLE entry(url TEXT NOT NULL UNIQUE, row BLOB NOT NULL);
        """
    /// Every line in the manifest file's order.
    static let sortedSQL = "SELECT url, row FROM entry ORDER BY url"

    /// The number of entries.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return connection == nil ? 0 : storedCount
    }

    /// Adds `entry` under `id`, replacing what `id` had.
    /// - Parameters:
    ///   - entry: the entry; its URL must not be stored under another id.
    ///   - id: the number the caller gives the entry's URL (dense: 0, 1, 2…).
    /// - Throws: ``StoreError/diskFull(path:)``, ``StoreError/database(operation:path:code:message:)``
    ///   (`SQLITE_CONSTRAINT_UNIQUE` when another id holds the URL, nothing changed;
    ///   `SQLITE_MISUSE` after ``remove()`` or from inside ``forEachSorted(_:)``'s body;
    ///   `SQLITE_RANGE` for an id ``largestIdJump`` or more beyond the largest so far).
    public func upsert(_ entry: ManifestEntry, id: UInt32) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        let connection = try usable("upsert", changing: true)
        let index = Int(id)
        try checkRange(of: id, operation: "upsert")
        line.removeAll(keepingCapacity: true)
        Manifest.appendLine(entry, to: &line)
        if !inTransaction {
            try connection.database.execute("BEGIN")
            inTransaction = true
        }
        let stored = index < rows.count ? rows[index] : 0
        // Carried until now: the entry becomes a row (the line stops being carried once the
        // row is in, so that a refused upsert changes nothing).
        let carriedLine = stored & Self.carriedBit != 0 ? Int(stored & ~Self.carriedBit) : nil
        let row = carriedLine == nil ? stored : 0
        let statement = row == 0 ? connection.insert : connection.update
        defer { statement.reset() }
        try statement.bind(Self.sortKey(of: entry.url), at: 1)
        try statement.bind(line, at: 2)
        if row != 0 { try statement.bind(Int64(row), at: 3) }
        _ = try statement.step()
        if row == 0 {
            let inserted = connection.database.lastInsertedRow
            guard let number = UInt32(exactly: inserted), number != 0, number < Self.carriedBit else {
                throw .database(operation: "upsert", path: relativePath, code: SQLITE_TOOBIG,
                                message: "row number \(inserted) does not fit the id table")
            }
            if index >= rows.count { rows.append(repeating: 0, count: index + 1 - rows.count) }
            rows[index] = number
            if let carriedLine {
                carriedAt[carriedLine] = .nan
            } else {
                storedCount += 1
            }
        }
        uncommittedRows += 1
        if uncommittedRows >= Self.rowsPerTransaction { try commit(connection) }
    }

    /// Lets ``carry(_:id:)`` keep entries as lines of `source`, the previous snapshot's
    /// manifest, when its lines can be copied (``ManifestIndex/linesCanBeCarried``: the
    /// current format, in URL order); otherwise nothing changes and `carry` upserts. `source`
    /// stays open until ``remove()``.
    public func carryLines(from source: ManifestIndex) {
        lock.lock()
        defer { lock.unlock() }
        guard self.source == nil, source.linesCanBeCarried, source.count < Int(Self.carriedBit), connection != nil else { return }
        self.source = source
        carriedAt = ChunkedArray(repeating: .nan, count: source.count)
    }

    /// Adds `entry` under `id` as ``upsert(_:id:)`` does, for an entry that is the previous
    /// manifest's (``carryLines(from:)``) for the same URL with a new ``ManifestEntry/fetchedAt``
    /// and no ``ManifestEntry/stale`` state (a revalidated URL): the saved file has that line
    /// with those two fields changed and every other byte as it was. Upserts instead when
    /// there is no previous manifest, the entry has no fetch time or a stale state, its URL's
    /// line cannot be told without reading (a shared hash), or `id` has a row already.
    /// - Throws: as ``upsert(_:id:)``.
    public func carry(_ entry: ManifestEntry, id: UInt32) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        let index = Int(id)
        let row = index < rows.count ? rows[index] : 0
        guard let source, let fetchedAt = entry.fetchedAt, fetchedAt.timeIntervalSinceReferenceDate.isFinite, entry.stale == nil,
              row == 0 || row & Self.carriedBit != 0,
              let line = source.onlyLine(forKey: entry.url), carriedAt[line].isNaN || row == Self.carriedBit | UInt32(line)
        else {
            try upsert(entry, id: id)
            return
        }
        _ = try usable("carry", changing: true)
        try checkRange(of: id, operation: "carry")
        if row != 0 {
            carriedAt[Int(row & ~Self.carriedBit)] = .nan
        } else {
            storedCount += 1
        }
        if index >= rows.count { rows.append(repeating: 0, count: index + 1 - rows.count) }
        rows[index] = Self.carriedBit | UInt32(line)
        carriedAt[line] = fetchedAt.timeIntervalSinceReferenceDate
    }

    /// The entry stored under `id`, decoded, or nil.
    /// - Parameter id: the number given to ``upsert(_:id:)``.
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (`SQLITE_MISUSE` after
    ///   ``remove()``), ``StoreError/manifestCorrupt(path:line:reason:)`` for a row that does
    ///   not decode (the database was damaged).
    public func entry(id: UInt32) throws(StoreError) -> ManifestEntry? {
        lock.lock()
        defer { lock.unlock() }
        let statement = try usable("entry", changing: false).select
        let index = Int(id)
        guard index < rows.count, rows[index] != 0 else { return nil }
        if rows[index] & Self.carriedBit != 0, let source {
            let line = Int(rows[index] & ~Self.carriedBit)
            var entry = try source.readEntry(line)
            entry.fetchedAt = Date(timeIntervalSinceReferenceDate: carriedAt[line])
            entry.stale = nil
            return entry
        }
        defer { statement.reset() }
        try statement.bind(Int64(rows[index]), at: 1)
        guard try statement.step() else { return nil }
        return try decode(statement.blob(at: 0), lineNumber: 2)
    }

    /// Calls `body` with every entry in URL order (the manifest file's order), decoded one at
    /// a time: memory stays bounded whatever the count.
    /// - Parameter body: receives each entry; its error stops the walk. It may call
    ///   ``count`` and ``entry(id:)``; changing the records from it throws.
    /// - Throws: `body`'s error, ``StoreError/database(operation:path:code:message:)``,
    ///   ``StoreError/diskFull(path:)`` (committing), ``StoreError/manifestCorrupt(path:line:reason:)``
    ///   for a row that does not decode (the line is its line in the saved file).
    public func forEachSorted(_ body: (ManifestEntry) throws(StoreError) -> Void) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        let connection = try usable("forEachSorted", changing: true)
        try commit(connection)
        iterating = true
        defer {
            iterating = false
            if removeAfterIterating { removeLocked() }
        }
        var lineNumber = 1
        try forEachLine(connection) { (line) throws(StoreError) in
            lineNumber += 1
            try body(try decode(UnsafeRawBufferPointer(line), lineNumber: lineNumber))
        }
    }

    /// Writes the manifest file, format version 2, byte for byte what ``Manifest/save(to:at:)``
    /// writes for the same entries: the header, the entries' lines sorted by URL, the `#end`
    /// line with their count. Atomically, through ``SecureFileSystem/beginWrite(_:)`` (mode
    /// 0600, the previous file kept on failure), in chunks of
    /// ``Manifest/saveChunkBytes``: never the whole file in memory.
    /// - Parameters:
    ///   - fileSystem: the store to write into.
    ///   - relativePath: the manifest's path below its root.
    /// - Throws: the errors of ``SecureFileSystem/beginWrite(_:)`` and ``AtomicFileWriter``
    ///   (``StoreError/diskFull(path:)``…), ``StoreError/database(operation:path:code:message:)``.
    public func save(to fileSystem: SecureFileSystem, at relativePath: String) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        let connection = try usable("save", changing: true)
        try commit(connection)
        let writer = try fileSystem.beginWrite(relativePath)
        let chunkBytes = Manifest.saveChunkBytes
        var out: [UInt8] = []
        out.reserveCapacity(chunkBytes + 64 * 1024)
        out.append(contentsOf: Manifest.header.utf8)
        out.append(0x0A)
        var written = 0
        try forEachLine(connection) { (line) throws(StoreError) in
            out.append(contentsOf: line)
            written += 1
            if out.count >= chunkBytes {
                try writer.append(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        out.append(contentsOf: Manifest.trailer(count: written))
        try writer.append(out)
        try writer.commit()
    }

    /// Calls `body` with every entry's line (its `\n` included) in URL order: the rows, and
    /// the carried lines of the previous manifest (read in file order, which is URL order) with
    /// their new fetch time, merged. The caller holds the lock and has committed.
    /// - Throws: `body`'s error, ``StoreError/database(operation:path:code:message:)``, the
    ///   previous manifest's read errors.
    private func forEachLine(_ connection: Connection, _ body: (UnsafeBufferPointer<UInt8>) throws(StoreError) -> Void) throws(StoreError) {
        let statement = connection.sorted
        defer { statement.reset() }
        var hasRow = try statement.step()
        /// Passes on the rows whose URL sorts before `key` (all of them for nil).
        func rows(before key: UnsafeBufferPointer<UInt8>?) throws(StoreError) {
            while hasRow, key.map({ Self.precedes(statement.blob(at: 0), $0) }) ?? true {
                try body(statement.blob(at: 1).assumingMemoryBound(to: UInt8.self))
                hasRow = try statement.step()
            }
        }
        if let source, storedCount > 0 {
            let carriedAt = self.carriedAt
            var line: [UInt8] = []
            try source.forEachLine(where: { !carriedAt[$0].isNaN }) { (number, previous) throws(StoreError) in
                try Self.withSortKey(ofLine: previous, path: source.relativePath, lineNumber: number + 2) { (key) throws(StoreError) in
                    try rows(before: key)
                }
                line.removeAll(keepingCapacity: true)
                guard Self.appendCarried(previous, fetchedAt: carriedAt[number], to: &line) else {
                    throw .manifestCorrupt(path: source.relativePath, line: number + 2, reason: "the file changed after it was opened")
                }
                try line.withUnsafeBufferPointer { (bytes) throws(StoreError) in try body(bytes) }
            }
        }
        try rows(before: nil)
    }

    /// Calls `body` with the sort key (``sortKey(of:)``, as bytes) of a manifest line's URL:
    /// the first field itself when it has nothing escaped and is ASCII, the decoded URL's key
    /// otherwise.
    /// - Throws: `body`'s error; ``StoreError/manifestCorrupt(path:line:reason:)``.
    static func withSortKey(
        ofLine line: UnsafeBufferPointer<UInt8>, path: String, lineNumber: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws(StoreError) -> Void
    ) throws(StoreError) {
        let end = line.firstIndex(of: 0x09) ?? line.count
        let field = UnsafeBufferPointer(rebasing: line[..<end])
        if !field.contains(where: { $0 == 0x5C || $0 >= 0x80 }) {
            try body(field)
            return
        }
        let entry = try ManifestDecoder.decodeEntry(line: line, path: path, lineNumber: lineNumber, fixedFields: Manifest.fixedFieldCount)
        let key = Array(sortKey(of: entry.url).utf8)
        try key.withUnsafeBufferPointer { (bytes) throws(StoreError) in try body(bytes) }
    }

    /// Appends a carried line: `previous` (a version 2 line without its `\n`) with its
    /// `fetchedAt` field set to `fetchedAt` (seconds since the reference date, written as
    /// ``Manifest/appendLine(_:to:)`` writes it) and its `state` field empty, then `\n`.
    /// - Returns: false when the line has fewer fields than version 2 lines have.
    static func appendCarried(_ previous: UnsafeBufferPointer<UInt8>, fetchedAt: Double, to out: inout [UInt8]) -> Bool {
        // The tabs that end the 8th to the 11th field: before and after `fetchedAt` (the 9th),
        // before and after `state` (the 11th; the line's end when it has no references).
        var tabs = 0
        var ends = (0, 0, 0, previous.count)
        for position in previous.indices where previous[position] == 0x09 {
            switch tabs {
            case 7: ends.0 = position
            case 8: ends.1 = position
            case 9: ends.2 = position
            case 10: ends.3 = position
            default: break
            }
            tabs += 1
            if tabs > 10 { break }
        }
        guard tabs >= Manifest.fixedFieldCount - 1 else { return false }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: previous[...ends.0]))
        out.append(contentsOf: String(fetchedAt).utf8)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: previous[ends.1...ends.2]))
        out.append(contentsOf: UnsafeBufferPointer(rebasing: previous[ends.3...]))
        out.append(0x0A)
        return true
    }

    /// Whether `a` sorts before `b`, byte by byte (`memcmp`, then the shorter first): SQLite's
    /// BINARY collation, the order of the `url` column.
    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order < 0 || (order == 0 && a.count < b.count)
    }

    /// Closes the connection and deletes the database file. Later calls throw (`count` is 0).
    /// From inside ``forEachSorted(_:)``'s body, this happens when the walk ends. Errors are
    /// ignored: the file is in the staging snapshot's scratch folder, which goes with it.
    public func remove() {
        lock.lock()
        defer { lock.unlock() }
        if iterating {
            removeAfterIterating = true
        } else {
            removeLocked()
        }
    }

    private func removeLocked() {
        guard connection != nil else { return }
        connection = nil  // finalizes the statements, then closes the database
        rows = ChunkedArray()
        source = nil
        carriedAt = ChunkedArray()
        try? fileSystem?.removeFile(relativePath)
    }

    /// The connection, or the error for a call after ``remove()`` or a change from inside
    /// ``forEachSorted(_:)``'s body.
    /// - Throws: ``StoreError/database(operation:path:code:message:)`` (`SQLITE_MISUSE`).
    private func usable(_ operation: String, changing: Bool) throws(StoreError) -> Connection {
        guard let connection else {
            throw .database(operation: operation, path: relativePath, code: SQLITE_MISUSE, message: "the records were removed")
        }
        if changing, iterating {
            throw .database(operation: operation, path: relativePath, code: SQLITE_MISUSE,
                            message: "called from inside forEachSorted's body")
        }
        return connection
    }

    /// Refuses an id ``largestIdJump`` or more beyond the largest so far (`SQLITE_RANGE`).
    private func checkRange(of id: UInt32, operation: String) throws(StoreError) {
        guard Int(id) < rows.count + Self.largestIdJump else {
            throw .database(operation: operation, path: relativePath, code: SQLITE_RANGE,
                            message: "id \(id) is far beyond the \(rows.count) ids so far (ids are dense: 0, 1, 2…)")
        }
    }

    /// Ends the open transaction, if any.
    /// - Throws: ``StoreError/database(operation:path:code:message:)``, ``StoreError/diskFull(path:)``.
    private func commit(_ connection: Connection) throws(StoreError) {
        guard inTransaction else { return }
        inTransaction = false
        uncommittedRows = 0
        try connection.database.execute("COMMIT")
    }

    /// Decodes a stored line (its `\n` dropped).
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)``.
    private func decode(_ row: UnsafeRawBufferPointer, lineNumber: Int) throws(StoreError) -> ManifestEntry {
        let bytes = row.assumingMemoryBound(to: UInt8.self)
        let line = bytes.last == 0x0A ? UnsafeBufferPointer(rebasing: bytes.dropLast()) : bytes
        return try ManifestDecoder.decodeEntry(line: line, path: relativePath, lineNumber: lineNumber)
    }

    /// The text the `url` column holds for a URL: the URL itself, in NFC when it has non-ASCII
    /// characters, so that byte order is Swift's String order (see ``create(in:at:)``).
    static func sortKey(of url: String) -> String {
        var url = url
        let isASCII = url.withUTF8 { bytes in !bytes.contains { $0 >= 0x80 } }
        return isASCII ? url : url.precomposedStringWithCanonicalMapping
    }
}
