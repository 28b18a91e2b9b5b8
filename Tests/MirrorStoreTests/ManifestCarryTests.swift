import Foundation
import MirrorCore
import Testing
@testable import MirrorStore
import MirrorTestSupport

/// `ManifestRecords.carry`: a revalidated entry kept as its line of the previous manifest and a
/// new fetch time, merged into the saved file in URL order, byte for byte what upserting every
/// entry writes.
@Suite struct ManifestCarryTests {
    static let databasePath = "_mirror/tmp/manifest.sqlite"

    /// A previous snapshot's manifest written by `Manifest.save`, opened as an index.
    static func previous(_ entries: [ManifestEntry], in store: SecureFileSystem) throws -> ManifestIndex {
        try Manifest(entries: entries).save(to: store, at: "previous/manifest.tsv")
        return try #require(try ManifestIndex.open(in: store, at: "previous/manifest.tsv"))
    }

    /// `entry` revalidated at `time`: a new fetch time, no stale state.
    static func revalidated(_ entry: ManifestEntry, at time: Double) -> ManifestEntry {
        var entry = entry
        entry.fetchedAt = Date(timeIntervalSinceReferenceDate: time)
        entry.stale = nil
        return entry
    }

    /// `entry` under another URL.
    static func moved(_ entry: ManifestEntry, to key: String) -> ManifestEntry {
        ManifestEntry(key: key, localPath: entry.localPath, status: entry.status, contentType: entry.contentType,
                      length: entry.length, sha256: entry.sha256, etag: entry.etag, lastModified: entry.lastModified,
                      fetchedAt: entry.fetchedAt, error: entry.error, references: entry.references, stale: entry.stale)
    }

    /// The previous entries: every unusual form, pages, a URL with a backslash (escaped in
    /// the file) and one with a tab.
    static let previousEntries: [ManifestEntry] = {
        let escaped = moved(ManifestFixtures.pageEntry(900), to: "https://site.example/back\\slash")
        var tabbed = moved(ManifestFixtures.pageEntry(901), to: "https://site.example/tab\there")
        tabbed.stale = ManifestEntry.Stale(depth: 4, isRequisite: false)
        return ManifestFixtures.unusual + (0..<60).map(ManifestFixtures.pageEntry) + [escaped, tabbed]
    }()

    @Test(arguments: [0, 1, 2, 3])
    func carriedAndUpsertedEntriesSaveAsUpsertingThemAllWould(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed))
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let source = try Self.previous(Self.previousEntries, in: store)
        #expect(source.linesCanBeCarried)
        let carrying = try ManifestRecords.create(in: store, at: Self.databasePath)
        carrying.carryLines(from: source)
        let plain = try ManifestRecords.inMemory()
        // Some previous entries revalidated, some changed, some gone; new URLs besides.
        var expected: [ManifestEntry] = []
        var carriedIDs: [(UInt32, ManifestEntry)] = []
        var id: UInt32 = 0
        for (index, entry) in Self.previousEntries.enumerated().shuffled(using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: continue  // gone
            case 1:
                var changed = entry
                changed.sha256 = "changed-\(index)"
                changed.fetchedAt = Date(timeIntervalSinceReferenceDate: 1e8 + Double(index))
                try carrying.upsert(changed, id: id)
                try plain.upsert(changed, id: id)
                expected.append(changed)
            default:
                let revalidated = Self.revalidated(entry, at: 8.1e8 + Double(index) / 7)
                try carrying.carry(revalidated, id: id)
                try plain.upsert(revalidated, id: id)
                carriedIDs.append((id, revalidated))
                expected.append(revalidated)
            }
            id += 1
        }
        for extra in 0..<15 {
            let host = ["a", "m", "z", "site"].randomElement(using: &random)!
            let added = Self.moved(ManifestFixtures.pageEntry(2000 + extra), to: "https://\(host).example/new-\(extra)")
            try carrying.upsert(added, id: id)
            try plain.upsert(added, id: id)
            expected.append(added)
            id += 1
        }
        #expect(carrying.count == expected.count)
        for (id, entry) in carriedIDs {
            #expect(try carrying.entry(id: id) == entry)
        }
        try carrying.save(to: store, at: "carried.tsv")
        try plain.save(to: store, at: "plain.tsv")
        try Manifest(entries: expected).save(to: store, at: "manifest.tsv")
        let written = try store.read("carried.tsv")
        #expect(firstDifference(written, try store.read("plain.tsv")) == nil)
        #expect(firstDifference(written, try store.read("manifest.tsv")) == nil)
        var walked: [ManifestEntry] = []
        try carrying.forEachSorted { walked.append($0) }
        #expect(walked.elementsEqual(Manifest(entries: expected).sortedEntries), "the walk differs from the sorted entries")
    }

    @Test func aCarriedLineKeepsEveryByteButTheFetchTimeAndTheState() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        var stale = ManifestFixtures.pageEntry(3)
        stale.stale = ManifestEntry.Stale(depth: 2, isRequisite: true)
        let source = try Self.previous([stale], in: store)
        let before = String(decoding: try store.read("previous/manifest.tsv"), as: UTF8.self).split(separator: "\n")[1]
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        records.carryLines(from: source)
        try records.carry(Self.revalidated(stale, at: 812_345_678.25), id: 0)
        try records.save(to: store, at: "m.tsv")
        let after = String(decoding: try store.read("m.tsv"), as: UTF8.self).split(separator: "\n")[1]
        let old = before.split(separator: "\t", omittingEmptySubsequences: false)
        let new = after.split(separator: "\t", omittingEmptySubsequences: false)
        #expect(old.count == new.count)
        #expect(old[10] == "=stale:2:requisite" && new[10] == "")
        #expect(new[8] == "812345678.25")
        for field in 0..<old.count where field != 8 && field != 10 {
            #expect(old[field] == new[field], "field \(field)")
        }
    }

    @Test func anIdMovesBetweenACarriedLineAndARow() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let entries = (0..<5).map(ManifestFixtures.pageEntry)
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        records.carryLines(from: try Self.previous(entries, in: store))
        // Carried, then upserted: a row; carried again: stays the row, replaced.
        try records.carry(Self.revalidated(entries[0], at: 1), id: 0)
        var changed = entries[0]
        changed.etag = "\"v2\""
        try records.upsert(changed, id: 0)
        #expect(records.count == 1)
        #expect(try records.entry(id: 0) == changed)
        let again = Self.revalidated(entries[0], at: 2)
        try records.carry(again, id: 0)
        #expect(records.count == 1)
        #expect(try records.entry(id: 0) == again)
        // A refused upsert (the URL is another id's) leaves the carried entry as it was.
        try records.carry(Self.revalidated(entries[2], at: 5), id: 2)
        #expect(throws: StoreError.self) { try records.upsert(changed, id: 2) }
        #expect(try records.entry(id: 2) == Self.revalidated(entries[2], at: 5))
        try records.upsert(Self.revalidated(entries[2], at: 5), id: 2)
        // The same line carried under one id twice: the later time wins.
        try records.carry(Self.revalidated(entries[1], at: 3), id: 1)
        try records.carry(Self.revalidated(entries[1], at: 4), id: 1)
        #expect(records.count == 3)
        #expect(try records.entry(id: 1) == Self.revalidated(entries[1], at: 4))
        try records.save(to: store, at: "m.tsv")
        #expect(try Manifest.load(from: store, at: "m.tsv").sortedEntries
            == [again, Self.revalidated(entries[1], at: 4), Self.revalidated(entries[2], at: 5)].sorted { $0.url < $1.url })
    }

    @Test func whatCannotBeCarriedIsUpserted() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let entries = (0..<4).map(ManifestFixtures.pageEntry)
        // Without carryLines, with a stale state, without a fetch time, a URL the source lacks.
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        try records.carry(Self.revalidated(entries[0], at: 5), id: 0)
        records.carryLines(from: try Self.previous(entries, in: store))
        var stale = Self.revalidated(entries[1], at: 6)
        stale.stale = ManifestEntry.Stale(depth: 1, isRequisite: false)
        try records.carry(stale, id: 1)
        var undated = entries[2]
        undated.fetchedAt = nil
        try records.carry(undated, id: 2)
        let unknown = Self.moved(ManifestFixtures.pageEntry(77), to: "https://elsewhere.example/")
        try records.carry(unknown, id: 3)
        let expected = [Self.revalidated(entries[0], at: 5), stale, undated, unknown]
        #expect(records.count == 4)
        for (id, entry) in expected.enumerated() { #expect(try records.entry(id: UInt32(id)) == entry) }
        try records.save(to: store, at: "m.tsv")
        try Manifest(entries: expected).save(to: store, at: "expected.tsv")
        #expect(firstDifference(try store.read("m.tsv"), try store.read("expected.tsv")) == nil)
    }

    @Test func aFileOutOfOrderOrOfVersionOneIsNotCarriedFrom() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let entries = (0..<3).map(ManifestFixtures.pageEntry)
        try Manifest(entries: entries).save(to: store, at: "sorted.tsv")
        // The same lines, the first two swapped: a file edited by hand.
        var lines = String(decoding: try store.read("sorted.tsv"), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        lines.swapAt(1, 2)
        try store.write(Array(lines.joined(separator: "\n").utf8), to: "unsorted.tsv")
        let unsorted = try #require(try ManifestIndex.open(in: store, at: "unsorted.tsv"))
        #expect(!unsorted.linesCanBeCarried)
        #expect(try #require(try ManifestIndex.open(in: store, at: "sorted.tsv")).linesCanBeCarried)
        // Version 1: no state field.
        let version1 = "mtls-mirror-manifest\t1\nhttps://a.example/\t=a.html\t200\t\t1\t\t=\"e\"\t\t1.5\t\n#end\t1\n"
        try store.write(Array(version1.utf8), to: "v1.tsv")
        #expect(!(try #require(try ManifestIndex.open(in: store, at: "v1.tsv"))).linesCanBeCarried)
        // Carrying from the unsorted file upserts, so the result is still in order.
        let records = try ManifestRecords.create(in: store, at: Self.databasePath)
        records.carryLines(from: unsorted)
        for (id, entry) in entries.enumerated() { try records.carry(Self.revalidated(entry, at: 9), id: UInt32(id)) }
        try records.save(to: store, at: "m.tsv")
        try Manifest(entries: entries.map { Self.revalidated($0, at: 9) }).save(to: store, at: "expected.tsv")
        #expect(firstDifference(try store.read("m.tsv"), try store.read("expected.tsv")) == nil)
    }

    @Test func aLineWithTooFewFieldsIsRefused() {
        var out: [UInt8] = []
        let short = Array("https://a.example/\t=a.html\t200\t\t1".utf8)
        #expect(!short.withUnsafeBufferPointer { ManifestRecords.appendCarried($0, fetchedAt: 1, to: &out) })
        let bare = Array("https://a.example/\t\t\t\t\t\t\t\t\t\t".utf8)
        #expect(bare.withUnsafeBufferPointer { ManifestRecords.appendCarried($0, fetchedAt: 1.5, to: &out) })
        #expect(String(decoding: out, as: UTF8.self) == "https://a.example/\t\t\t\t\t\t\t\t1.5\t\t\n")
    }
}
