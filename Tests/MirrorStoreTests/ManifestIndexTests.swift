import Dispatch
import Foundation
import MirrorCore
import Testing
@testable import MirrorStore
import MirrorTestSupport

/// `ManifestIndex`: a manifest file read through an index of where each line is, with the
/// same entries, the same checks and the same errors as `Manifest.load`.
@Suite struct ManifestIndexTests {
    static func store() throws -> (TemporaryFolder, SecureFileSystem) {
        let folder = try TemporaryFolder()
        return (folder, try SecureFileSystem(root: folder.path))
    }

    /// What a refresh asks without reading lines: where each URL's links were written (its
    /// own file, or its redirect's target's, one hop) and which entries are files, redirects or
    /// stale, so that a walk over some of them decodes only those.
    @Test func pathFingerprintsAndKindsNeedNoRead() throws {
        let (folder, store) = try Self.store()
        func url(_ path: String) -> WebURL { WebURL("https://site.example" + path)! }
        let entries = [
            ManifestEntry(url: url("/a"), localPath: "a@.html", status: 200, references: ["https://site.example/b"]),
            ManifestEntry(url: url("/old"), status: 301, references: ["https://site.example/a"]),
            ManifestEntry(url: url("/away"), status: 302, references: ["https://elsewhere.example/x"]),
            ManifestEntry(url: url("/stale"), localPath: "stale@.html", status: 200,
                          stale: ManifestEntry.Stale(depth: 2, isRequisite: false)),
            ManifestEntry(url: url("/failed"), error: "http-500: HTTP 500"),
            ManifestEntry(url: url("/reserved"), localPath: "reserved@.html", error: "not mirrored: beyond the crawl limits"),
        ]
        try Manifest(entries: entries).save(to: store, at: "m.tsv")
        let index = try #require(try ManifestIndex.open(in: store, at: "m.tsv"))
        #expect(index.pathHash(forKey: "https://site.example/a") == ManifestIndex.pathHash("a@.html"))
        #expect(index.pathHash(forKey: "https://site.example/old") == ManifestIndex.pathHash("a@.html"), "a redirect's target")
        #expect(index.pathHash(forKey: "https://site.example/away") == 0, "a redirect to nothing stored")
        #expect(index.pathHash(forKey: "https://site.example/failed") == 0)
        #expect(index.pathHash(forKey: "https://site.example/reserved") == ManifestIndex.pathHash("reserved@.html"))
        #expect(index.pathHash(forKey: "https://site.example/absent") == 0)
        #expect(ManifestIndex.pathHash("a@.html") != ManifestIndex.pathHash("b@.html"))
        var stale: [String] = []
        try index.forEach(kinds: .stale) { stale.append($0.url) }
        #expect(stale == ["https://site.example/stale"])
        var kept: [String] = []
        try index.forEach(kinds: [.stored, .redirect]) { kept.append($0.url) }
        #expect(kept == ["https://site.example/a", "https://site.example/away", "https://site.example/old",
                         "https://site.example/stale"])
        withExtendedLifetime(folder) {}
    }

    @Test func everyEntryIsFoundAndEqualsWhatLoadReads() throws {
        let (folder, store) = try Self.store()
        let entries = ManifestFixtures.unusual + (0..<3_000).map(ManifestFixtures.pageEntry)
        try Manifest(entries: entries).save(to: store, at: "_mirror/manifest.tsv")
        let loaded = try Manifest.load(from: store, at: "_mirror/manifest.tsv")
        // Over 256 KiB, so lines straddle the chunks the file is read in.
        #expect(try store.read("_mirror/manifest.tsv").count > 4 * ManifestIndex.chunkBytes)
        let index = try #require(try ManifestIndex.open(in: store, at: "_mirror/manifest.tsv"))
        #expect(index.count == loaded.count)
        for entry in loaded {
            #expect(index.entry(forKey: entry.url) == entry, "\(entry.url)")
        }
        var walked: [ManifestEntry] = []
        try index.forEach { walked.append($0) }
        #expect(walked == loaded.sortedEntries)
        // Absent keys: near misses, a prefix, the empty string, the fragment form.
        for key in ["https://site.example/nothing", "https://site.example/section1/page1", "", "https://site.example/section1/page1@q=1.html",
                    entries[5].url + "#x", entries[5].url.uppercased()] {
            #expect(index.entry(forKey: key) == nil, "\(key)")
        }
        // Keys that Swift's String calls equal find the entry, as in the Manifest's dictionary.
        #expect(index.entry(forKey: "https://\u{E4}pfel.example/") == loaded.entry(forKey: "https://\u{E4}pfel.example/"))
        #expect(index.entry(forKey: "https://\u{E4}pfel.example/") != nil)
        withExtendedLifetime(folder) {}
    }

    @Test func aMissingFileOrFolderIsNil() throws {
        let (folder, store) = try Self.store()
        #expect(try ManifestIndex.open(in: store, at: "_mirror/manifest.tsv") == nil)
        try store.createDirectory("_mirror")
        #expect(try ManifestIndex.open(in: store, at: "_mirror/manifest.tsv") == nil)
        // Not nil for the other failures: a symbolic link, a path that climbs out.
        try Manifest().save(to: store, at: "real.tsv")
        #expect(symlink(store.absolutePath("real.tsv"), store.absolutePath("_mirror/manifest.tsv")) == 0)
        #expect(throws: StoreError.symlinkRefused(path: "_mirror/manifest.tsv")) { try ManifestIndex.open(in: store, at: "_mirror/manifest.tsv") }
        #expect(throws: StoreError.self) { try ManifestIndex.open(in: store, at: "../manifest.tsv") }
        let empty = try #require(try ManifestIndex.open(in: store, at: "real.tsv"))
        #expect(empty.count == 0 && empty.entry(forKey: "https://a/") == nil)
        withExtendedLifetime(folder) {}
    }

    @Test func versionOneFilesAreStillRead() throws {
        let (folder, store) = try Self.store()
        let v1 = "mtls-mirror-manifest\t1\nhttps://a/\t=index.html\t200\t\t3\t\t\t\t\t\thttps://a/b\t+https://a/c.png\n"
            + "https://a/d\t\t404\t\t\t\t\t\t\t=Not Found\n#end\t2\n"
        try store.write(Array(v1.utf8), to: "m.tsv")
        let loaded = try Manifest.load(from: store, at: "m.tsv")
        let index = try #require(try ManifestIndex.open(in: store, at: "m.tsv"))
        let entry = try #require(index.entry(forKey: "https://a/"))
        #expect(entry.references == ["https://a/b", "+https://a/c.png"])
        #expect(entry.stale == nil && entry.status == 200 && entry.localPath == "index.html")
        #expect(index.entry(forKey: "https://a/d")?.error == "Not Found")
        var walked: [ManifestEntry] = []
        try index.forEach { walked.append($0) }
        #expect(walked == loaded.sortedEntries)
        withExtendedLifetime(folder) {}
    }

    /// Every damaged file of `ManifestTests` is refused with the very error `Manifest.load` gives.
    @Test(arguments: ManifestTests.corruptions)
    func corruptFilesGiveLoadsErrors(name: String, text: String, line: Int) throws {
        try Self.expectSameError(ManifestTests.corruptionBytes(name, text), line: line, name)
    }

    /// Damage far into a file larger than a chunk: the line numbers still agree with load's.
    @Test func damageBeyondTheFirstChunkNamesTheSameLine() throws {
        let valid = Manifest(entries: (0..<2_000).map(ManifestFixtures.pageEntry)).encoded()
        #expect(valid.count > 3 * ManifestIndex.chunkBytes)
        var lines = valid.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        lines.removeLast()  // after the last "\n"
        func joined(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.map { $0 + [0x0A] }.joined()) }
        // Cut inside a line, cut at a line end, a wrong count, a bad line, a URL twice far apart.
        try Self.expectSameError(Array(valid.dropLast(40)), line: 2_001, "cut inside the last entry")
        try Self.expectSameError(joined(Array(lines.dropLast())), line: 2_002, "cut at a line end")
        try Self.expectSameError(joined(Array(lines.dropLast()) + [Array("#end\t1999".utf8)]), line: 2_002, "wrong count")
        var bad = lines
        bad[1_500] = Array("https://a/\tx".utf8)
        try Self.expectSameError(joined(bad), line: 1_501, "too few fields")
        var badText = lines
        badText[1_700][3] = 0xFF
        try Self.expectSameError(joined(badText), line: 1_701, "invalid UTF-8 in a URL")
        var twice = lines
        twice[1_900] = lines[3]
        try Self.expectSameError(joined(twice), line: 1_901, "duplicate")
        var afterEnd = lines
        afterEnd.append(lines[5])
        try Self.expectSameError(joined(afterEnd), line: 2_003, "data after the end marker")
    }

    static func expectSameError(_ bytes: [UInt8], line: Int, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (folder, store) = try Self.store()
        try store.write(bytes, to: "m.tsv")
        var loadError: StoreError?
        do { _ = try Manifest.load(from: store, at: "m.tsv") } catch { loadError = error }
        var indexError: StoreError?
        do { _ = try ManifestIndex.open(in: store, at: "m.tsv") } catch { indexError = error }
        guard case .manifestCorrupt(_, let loadLine, _) = loadError else {
            Issue.record("\(name): load gave \(String(describing: loadError))", sourceLocation: sourceLocation)
            return
        }
        #expect(loadLine == line, "\(name): \(String(describing: loadError))", sourceLocation: sourceLocation)
        #expect(indexError == loadError, "\(name)", sourceLocation: sourceLocation)
        withExtendedLifetime(folder) {}
    }

    /// The table keeps entries whose hashes collide apart (the caller compares the keys).
    @Test func collidingHashesAreKeptApart() throws {
        var table = ManifestIndex.Table()
        var comparisons: [Int] = []
        for index in 0..<3 {
            let added = try table.insert(hash: 42, offset: UInt64(index * 10), length: 5) { other, _, _ in
                comparisons.append(other)
                return false
            }
            #expect(added)
        }
        #expect(comparisons == [0, 0, 1])
        #expect(table.candidates(hash: 42) == [0, 1, 2])
        #expect(table.candidates(hash: 43).isEmpty)
        let again = try table.insert(hash: 42, offset: 99, length: 1) { other, offset, _ in other == 1 && offset == 10 }
        #expect(!again)
        #expect(table.count == 3)
        // Growth places every entry again, including a full run of collisions.
        var random = SplitMix64(seed: 5)
        let hashes = (0..<20_000).map { _ in random.next() }
        for hash in hashes { _ = try table.insert(hash: hash, offset: 0, length: 0) { _, _, _ in false } }
        #expect(table.count == 20_003 && table.slots.count == 32_768)
        #expect(hashes.enumerated().allSatisfy { table.candidates(hash: $0.element).contains($0.offset + 3) })
        #expect(table.candidates(hash: 42) == [0, 1, 2])
    }

    @Test func concurrentLookupsAllSucceed() throws {
        let (folder, store) = try Self.store()
        let entries = (0..<1_000).map(ManifestTests.sampleEntry)
        try Manifest(entries: entries).save(to: store, at: "m.tsv")
        let index = try #require(try ManifestIndex.open(in: store, at: "m.tsv"))
        let wrong = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<2_000 {
                let entry = entries[(worker * 131 + round * 7) % entries.count]
                if index.entry(forKey: entry.url) != entry { wrong.add() }
            }
        }
        #expect(wrong.value == 0)
        withExtendedLifetime(folder) {}
    }

    /// 100,000 entries: the index's bytes per entry and the time of a lookup are printed.
    @Test func aHundredThousandEntriesCostAboutFortyBytesEach() throws {
        let (folder, store) = try Self.store()
        let entries = (0..<100_000).map(ManifestTests.sampleEntry)
        try Manifest(entries: entries).save(to: store, at: "m.tsv")
        let openStart = ContinuousClock.now
        let index = try #require(try ManifestIndex.open(in: store, at: "m.tsv"))
        let openTime = ContinuousClock.now - openStart
        #expect(index.count == 100_000)
        let perEntry = Double(index.indexBytes) / Double(index.count)
        #expect(perEntry <= 42, "\(perEntry) bytes an entry")
        var random = SplitMix64(seed: 9)
        let keys = (0..<20_000).map { _ in entries[Int(random.next() % 100_000)].url }
        var found = 0
        let start = ContinuousClock.now
        for key in keys where index.entry(forKey: key)?.url == key { found += 1 }
        let elapsed = ContinuousClock.now - start
        let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        print("ManifestIndex (\(buildConfiguration)): 100,000 entries, \(String(format: "%.1f", perEntry)) index bytes an entry, open \(openTime), "
            + "entry(forKey:) \(String(format: "%.2f", micros / Double(keys.count))) µs")
        #expect(found == keys.count)
        withExtendedLifetime(folder) {}
    }
}

/// A counter many threads add to.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
