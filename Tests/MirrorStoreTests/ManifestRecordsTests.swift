import CSQLite
import Foundation
import MirrorCore
import Testing
@testable import MirrorStore
import MirrorTestSupport

/// `ManifestRecords`: a run's manifest entries in a scratch SQLite database, saved byte for
/// byte as `Manifest.save` saves them. Serialized: one test checks SQLite's memory high-water
/// mark, which counts every connection of the process.
@Suite(.serialized) struct ManifestRecordsTests {
    static let databasePath = "_mirror/tmp/manifest.sqlite"

    static func saved(_ manifest: Manifest) throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        try manifest.save(to: store, at: "manifest.tsv")
        return try store.read("manifest.tsv")
    }

    @Test func upsertReplacesAndEntryReadsBack() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        #expect(records.count == 0)
        #expect(try records.entry(id: 0) == nil)
        let first = ManifestFixtures.pageEntry(1)
        try records.upsert(first, id: 7)
        try records.upsert(ManifestTests.awkward, id: 0)
        #expect(records.count == 2)
        #expect(try records.entry(id: 7) == first)
        #expect(try records.entry(id: 0) == ManifestTests.awkward)
        #expect(try records.entry(id: 1) == nil)
        // Replacing: the same URL with new values, then another URL under the same id.
        var changed = first
        changed.status = 304
        changed.references = []
        changed.stale = ManifestEntry.Stale(depth: 2, isRequisite: false)
        try records.upsert(changed, id: 7)
        #expect(records.count == 2)
        #expect(try records.entry(id: 7) == changed)
        let moved = ManifestFixtures.pageEntry(2)
        try records.upsert(moved, id: 7)
        #expect(records.count == 2)
        #expect(try records.entry(id: 7) == moved)
        try records.save(to: store, at: "_mirror/manifest.tsv")
        let loaded = try Manifest.load(from: store, at: "_mirror/manifest.tsv")
        #expect(loaded.sortedEntries == [ManifestTests.awkward, moved].sorted { $0.url < $1.url })
    }

    @Test func saveWritesWhatManifestSaveWrites() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let entries = ManifestFixtures.unusual + (0..<40).map(ManifestFixtures.pageEntry)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        for (id, entry) in entries.enumerated().reversed() { try records.upsert(entry, id: UInt32(id)) }
        try records.save(to: store, at: "_mirror/manifest.tsv")
        let written = try store.read("_mirror/manifest.tsv")
        let expected = try Self.saved(Manifest(entries: entries))
        #expect(firstDifference(written, expected) == nil)
        #expect(permissionBits(store.absolutePath("_mirror/manifest.tsv")) == 0o600)
        let loaded = try Manifest.load(from: store, at: "_mirror/manifest.tsv")
        #expect(loaded.count == entries.count)
        #expect(loaded.sortedEntries == Manifest(entries: entries).sortedEntries)
        // The non-ASCII hosts sort as Swift sorts them, the decomposed one kept as written.
        #expect(loaded.entry(forKey: "https://a\u{308}pfel.example/")?.url.unicodeScalars.count == "https://a\u{308}pfel.example/".unicodeScalars.count)
    }

    @Test func anEmptySaveIsTheEmptyManifest() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        try records.save(to: store, at: "m.tsv")
        #expect(try store.read("m.tsv") == Array("mtls-mirror-manifest\t2\n#end\t0\n".utf8))
        #expect(try store.read("m.tsv") == Self.saved(Manifest()))
        var visited = 0
        try records.forEachSorted { _ in visited += 1 }
        #expect(visited == 0)
    }

    @Test func thousandsInRandomOrderWithReplacementsSaveAsTheManifestDoes() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        var random = SplitMix64(seed: 27)
        var entries = (0..<3_000).map(ManifestFixtures.pageEntry)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        for id in Array(entries.indices).shuffled(using: &random) { try records.upsert(entries[id], id: UInt32(id)) }
        // A refresh upserts some URLs again with new values.
        for id in Array(entries.indices).shuffled(using: &random).prefix(500) {
            entries[id].etag = "\"v2-\(id)\""
            entries[id].references.removeLast(id % 5)
            try records.upsert(entries[id], id: UInt32(id))
        }
        #expect(records.count == 3_000)
        try records.save(to: store, at: "m.tsv")
        #expect(firstDifference(try store.read("m.tsv"), try Self.saved(Manifest(entries: entries))) == nil)
        var sorted: [ManifestEntry] = []
        try records.forEachSorted { sorted.append($0) }
        #expect(sorted == Manifest(entries: entries).sortedEntries)
        #expect(try Manifest.load(from: store, at: "m.tsv").sortedEntries == sorted)
    }

    @Test func theWalkMayReadButNotChangeTheRecords() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        for id in 0..<3 { try records.upsert(ManifestFixtures.pageEntry(id), id: UInt32(id)) }
        var seen: [String] = []
        try records.forEachSorted { entry throws(StoreError) in
            seen.append(entry.url)
            let count = records.count
            let one = try records.entry(id: 1)
            #expect(count == 3)
            #expect(one == ManifestFixtures.pageEntry(1))
            do throws(StoreError) {
                try records.upsert(ManifestFixtures.pageEntry(9), id: 9)
                Issue.record("an upsert from inside the walk was accepted")
            } catch {
                guard case .database(let operation, _, let code, let message) = error else { throw error }
                #expect(operation == "upsert" && code == SQLITE_MISUSE && message.contains("forEachSorted"))
            }
        }
        #expect(seen == (0..<3).map { ManifestFixtures.pageEntry($0).url }.sorted())
        #expect(records.count == 3)
        // The body's error ends the walk.
        var calls = 0
        #expect(throws: StoreError.diskFull(path: "x")) {
            try records.forEachSorted { _ throws(StoreError) in
                calls += 1
                throw .diskFull(path: "x")
            }
        }
        #expect(calls == 1)
        // remove() from inside the walk happens when it ends.
        try records.forEachSorted { _ in records.remove() }
        #expect(!FileManager.default.fileExists(atPath: store.absolutePath(Self.databasePath)))
    }

    @Test func theDatabaseIsPrivateHasNoJournalAndRemoveDeletesIt() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let path = store.absolutePath(Self.databasePath)
        // A leftover file of a run that died is replaced.
        try store.write(Array("leftover".utf8), to: Self.databasePath)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        for id in 0..<500 { try records.upsert(ManifestFixtures.pageEntry(id), id: UInt32(id)) }
        #expect(permissionBits(path) == 0o600)
        #expect(permissionBits(store.absolutePath("_mirror/tmp")) == 0o700)
        #expect(folder.allEntries().sorted() == ["_mirror", "_mirror/tmp", "_mirror/tmp/manifest.sqlite"])
        try records.save(to: store, at: "_mirror/manifest.tsv")
        #expect(try Manifest.load(from: store, at: "_mirror/manifest.tsv").count == 500)
        records.remove()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(folder.allEntries().sorted() == ["_mirror", "_mirror/manifest.tsv", "_mirror/tmp"])
        #expect(records.count == 0)
        records.remove()  // twice is harmless
        #expect(throws: StoreError.database(operation: "upsert", path: Self.databasePath, code: SQLITE_MISUSE,
                                            message: "the records were removed")) {
            try records.upsert(ManifestFixtures.pageEntry(1), id: 1)
        }
        #expect(throws: StoreError.self) { try records.entry(id: 1) }
        #expect(throws: StoreError.self) { try records.save(to: store, at: "other.tsv") }
    }

    @Test func aURLUnderASecondIdIsRefusedAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        try records.upsert(ManifestFixtures.pageEntry(1), id: 1)
        try records.upsert(ManifestFixtures.pageEntry(2), id: 2)
        do {
            try records.upsert(ManifestFixtures.pageEntry(1), id: 2)
            Issue.record("a URL under two ids was accepted")
        } catch {
            guard case .database(_, let path, let code, let message) = error else { throw error }
            #expect(path == Self.databasePath)
            // SQLITE_CONSTRAINT_UNIQUE, a macro Swift cannot import.
            #expect(code == SQLITE_CONSTRAINT | 8 << 8, "\(code)")
            #expect(message.contains("UNIQUE constraint failed: entry.url"), "\(message)")
            #expect(error.category == .io)
            #expect(error.summary.contains(Self.databasePath) && error.hint.contains("bug"))
        }
        #expect(records.count == 2)
        #expect(try records.entry(id: 2) == ManifestFixtures.pageEntry(2))
        // Under a new id too.
        #expect(throws: StoreError.self) { try records.upsert(ManifestFixtures.pageEntry(2), id: 5) }
        #expect(records.count == 2)
        #expect(try records.entry(id: 5) == nil)
        try records.upsert(ManifestFixtures.pageEntry(3), id: 3)
        try records.save(to: store, at: "m.tsv")
        #expect(firstDifference(try store.read("m.tsv"), try Self.saved(Manifest(entries: [1, 2, 3].map(ManifestFixtures.pageEntry)))) == nil)
    }

    @Test func errorsAreTyped() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        // A folder where the database file should be (tests run as root too, where a read-only
        // folder would not stop the write).
        try store.createDirectory("taken/manifest.sqlite")
        #expect(throws: StoreError.io(operation: "unlinkat", path: "taken/manifest.sqlite", errno: EISDIR)) {
            try ManifestRecords.create(in: store, at: "taken/manifest.sqlite")
        }
        // A file where a folder should be, a symbolic link on the way, a path that climbs out.
        try store.write([1], to: "file")
        #expect(throws: StoreError.notADirectory(path: "file")) { try ManifestRecords.create(in: store, at: "file/m.sqlite") }
        #expect(symlink(folder.path, folder.path + "/link") == 0)
        #expect(throws: StoreError.symlinkRefused(path: "link")) { try ManifestRecords.create(in: store, at: "link/m.sqlite") }
        #expect(throws: StoreError.self) { try ManifestRecords.create(in: store, at: "../m.sqlite") }
        // Saving to a folder that is a file.
        let records = try ManifestRecords.create(in: store, at: "m.sqlite")
        try records.upsert(ManifestFixtures.pageEntry(1), id: 1)
        #expect(throws: StoreError.notADirectory(path: "file")) { try records.save(to: store, at: "file/manifest.tsv") }
        #expect(try records.entry(id: 1) == ManifestFixtures.pageEntry(1))
        // An id far beyond the others (ids are dense) is refused, not given gigabytes.
        #expect(throws: StoreError.database(operation: "upsert", path: "m.sqlite", code: SQLITE_RANGE,
                                            message: "id 4294967295 is far beyond the 2 ids so far (ids are dense: 0, 1, 2…)")) {
            try records.upsert(ManifestFixtures.pageEntry(2), id: .max)
        }
        try records.upsert(ManifestFixtures.pageEntry(2), id: UInt32(ManifestRecords.largestIdJump))
        #expect(records.count == 2)
        #expect(try records.entry(id: UInt32(ManifestRecords.largestIdJump)) == ManifestFixtures.pageEntry(2))
    }

    @Test func theSortedWalkUsesTheIndexNotATemporarySort() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let database = try SQLiteDatabase.create(at: "plan.sqlite", in: store)
        try database.execute(ManifestRecords.setupSQL)
        let plan = try database.prepare("EXPLAIN QUERY PLAN " + ManifestRecords.sortedSQL)
        var steps: [String] = []
        while try plan.step() { steps.append(plan.text(at: 3)) }
        #expect(steps.count == 1 && steps[0].contains("USING INDEX"), "\(steps)")
        #expect(!steps.joined().contains("TEMP B-TREE"), "\(steps)")
    }

    /// 50,000 entries of about 2 KB (100 MB of lines): SQLite's memory stays near its 2 MiB
    /// page cache, and the time per upsert is printed (a debug build; see the commit message
    /// for release figures).
    @Test func memoryStaysBoundedAndTheUpsertTimeIsPrinted() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let entries = (0..<2_000).map(ManifestFixtures.pageEntry)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        _ = SQLiteDatabase.memoryHighwater(reset: true)
        let total = 50_000
        var line: [UInt8] = []
        var lineBytes = 0
        let start = ContinuousClock.now
        for id in 0..<total {
            var entry = entries[id % entries.count]
            if id >= entries.count { entry = ManifestEntry(key: entry.url + "&copy=\(id)", localPath: entry.localPath, status: entry.status,
                                                           contentType: entry.contentType, length: entry.length, sha256: entry.sha256,
                                                           etag: entry.etag, lastModified: entry.lastModified, fetchedAt: entry.fetchedAt,
                                                           error: entry.error, references: entry.references) }
            try records.upsert(entry, id: UInt32(id))
            if id < 100 { line.removeAll(); Manifest.appendLine(entry, to: &line); lineBytes += line.count }
        }
        let elapsed = ContinuousClock.now - start
        let highwater = SQLiteDatabase.memoryHighwater(reset: false)
        let saveStart = ContinuousClock.now
        try records.save(to: store, at: "m.tsv")
        let saveTime = ContinuousClock.now - saveStart
        let afterSave = SQLiteDatabase.memoryHighwater(reset: false)
        let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        print("ManifestRecords (\(buildConfiguration)): \(total) upserts of \(lineBytes / 100)-byte lines, \(String(format: "%.2f", micros / Double(total))) µs each; "
            + "save \(saveTime); SQLite memory high-water \(highwater / 1024) KiB (\(afterSave / 1024) KiB after save)")
        #expect(records.count == total)
        #expect(lineBytes / 100 > 1_800)
        #expect(highwater < 3 * 1024 * 1024, "SQLite held \(highwater) bytes")
        #expect(afterSave < 3 * 1024 * 1024, "SQLite held \(afterSave) bytes")
        let index = try #require(try ManifestIndex.open(in: store, at: "m.tsv"))
        #expect(index.count == total)
        records.remove()
    }
}
