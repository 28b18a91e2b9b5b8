import Foundation
import MirrorCore
import Testing
@testable import MirrorStore

@Suite struct ManifestTests {
    static func sampleEntry(_ index: Int) -> ManifestEntry {
        let url = WebURL("https://site.example/section\(index % 97)/page\(index)?q=\(index)#frag")!
        return ManifestEntry(
            url: url, localPath: "section\(index % 97)/page\(index)@q=\(index).html", status: 200,
            contentType: "text/html; charset=utf-8", length: Int64(index * 1000),
            sha256: SHA256Digest.hex(Array(String(index).utf8)), etag: "W/\"\(index)\"",
            lastModified: "Tue, 01 Jan 2030 00:00:00 GMT",
            fetchedAt: Date(timeIntervalSinceReferenceDate: 800_000_000.123456789 + Double(index) / 7),
            error: nil,
            references: ["https://site.example/", "https://site.example/section\(index % 97)/style.css"])
    }

    static let awkward = ManifestEntry(
        url: WebURL("http://a.example/x")!, localPath: "", status: nil, contentType: nil, length: 0,
        sha256: nil, etag: "=\t\\n\n\r\\", lastModified: "", fetchedAt: nil,
        error: "timeout\tafter 30 s\nretrying \\ later", references: [])

    @Test func roundTripsExactlyThroughTheFile() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        var manifest = Manifest()
        for index in 0..<50 { manifest.upsert(Self.sampleEntry(index)) }
        manifest.upsert(Self.awkward)
        try manifest.save(to: store, at: "_mirror/manifest.tsv")
        let loaded = try Manifest.load(from: store, at: "_mirror/manifest.tsv")
        #expect(loaded.count == 51)
        #expect(loaded.sortedEntries == manifest.sortedEntries)
        #expect(loaded.entry(forKey: "http://a.example/x") == Self.awkward)
        #expect(loaded.entry(forKey: "http://a.example/x")?.etag == "=\t\\n\n\r\\")
        #expect(permissionBits(store.root + "/_mirror/manifest.tsv") == 0o600)
        #expect(folder.allEntries().sorted() == ["_mirror", "_mirror/manifest.tsv"])
    }

    @Test func upsertEntryRemoveAndIterate() throws {
        var manifest = Manifest()
        let url = try #require(WebURL("https://site.example/a#one"))
        manifest.upsert(ManifestEntry(url: url, status: 200))
        manifest.upsert(ManifestEntry(url: try #require(WebURL("https://site.example/a#two")), status: 304))
        manifest.upsert(ManifestEntry(url: try #require(WebURL("https://site.example/b")), status: 404, error: "Not Found"))
        #expect(manifest.count == 2)
        #expect(manifest.entry(for: url)?.status == 304)
        #expect(manifest.entry(for: url)?.url == "https://site.example/a")
        #expect(Set(manifest.map(\.url)) == ["https://site.example/a", "https://site.example/b"])
        #expect(manifest.sortedEntries.map(\.url) == ["https://site.example/a", "https://site.example/b"])
        #expect(manifest.remove(url)?.status == 304)
        #expect(manifest.remove(url) == nil)
        #expect(manifest.entry(for: url) == nil)
        #expect(manifest.count == 1)
    }

    @Test func hundredThousandEntriesRoundTripAndTheLoadTimeIsPrinted() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let manifest = Manifest(entries: (0..<100_000).map(Self.sampleEntry))
        let saveStart = ContinuousClock.now
        try manifest.save(to: store, at: "manifest.tsv")
        let saveTime = ContinuousClock.now - saveStart
        let loadStart = ContinuousClock.now
        let loaded = try Manifest.load(from: store, at: "manifest.tsv")
        let loadTime = ContinuousClock.now - loadStart
        print("Manifest with 100,000 entries: save \(saveTime), load \(loadTime)")
        #expect(loaded.count == 100_000)
        #expect(loaded.sortedEntries == manifest.sortedEntries)
    }

    @Test func streamedChunksJoinToTheWholeFileAndTheFirstErrorStopsIt() throws {
        let manifest = Manifest(entries: (0..<2_000).map(Self.sampleEntry))
        var chunks: [[UInt8]] = []
        manifest.encode(chunkBytes: 4096) { (chunk: inout [UInt8]) in
            chunks.append(chunk)
            chunk.removeAll(keepingCapacity: true)
        }
        #expect(chunks.count > 100)
        // Every chunk but the last is cut after the line that crossed the limit.
        #expect(chunks.dropLast().allSatisfy { $0.count >= 4096 && $0.count < 4096 + 1024 && $0.last == 0x0A })
        #expect(Array(chunks.joined()) == manifest.encoded())

        struct Stop: Error {}
        var emitted = 0
        #expect(throws: Stop.self) {
            try manifest.encode(chunkBytes: 4096) { (chunk: inout [UInt8]) throws(Stop) in
                emitted += 1
                if emitted == 2 { throw Stop() }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        #expect(emitted == 2)
    }

    @Test func aSaveThatFailsLeavesThePreviousFile() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let previous = Manifest(entries: [Self.sampleEntry(1)])
        try previous.save(to: store, at: "_mirror/manifest.tsv")
        // A manifest too large for the destination: the folder is made read-only after the
        // writer opened its temporary file would need root-proof tricks, so fill a tiny
        // file-size limit instead (RLIMIT_FSIZE makes write(2) fail with EFBIG).
        let large = Manifest(entries: (0..<5_000).map(Self.sampleEntry))
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
        var small = limit
        small.rlim_cur = 64 * 1024
        signal(SIGXFSZ, SIG_IGN)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small)
        let outcome = Result { () throws(StoreError) in try large.save(to: store, at: "_mirror/manifest.tsv") }
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
        signal(SIGXFSZ, SIG_DFL)
        #expect(throws: StoreError.self) { try outcome.get() }
        let loaded = try Manifest.load(from: store, at: "_mirror/manifest.tsv")
        #expect(loaded.sortedEntries == previous.sortedEntries)
        // No temporary file is left behind.
        #expect(folder.allEntries().sorted() == ["_mirror", "_mirror/manifest.tsv"])
    }

    @Test func loadIfPresentGivesAnEmptyManifestForAMissingFile() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        #expect(try Manifest.loadIfPresent(from: store, at: "_mirror/manifest.tsv").isEmpty)
        #expect(throws: StoreError.self) { try Manifest.load(from: store, at: "_mirror/manifest.tsv") }
    }

    static func validFile() -> String {
        String(decoding: Manifest(entries: [sampleEntry(1), sampleEntry(2)]).encoded(), as: UTF8.self)
    }

    /// Damaged file text → the line the error must name.
    static let corruptions: [(String, String, Int)] = [
        ("empty file", "", 1),
        ("wrong header", "something else\n#end\t0\n", 1),
        ("cut inside a line", String(validFile().dropLast(20)), 3),
        ("cut at a line end", validFile().split(separator: "\n").dropLast().joined(separator: "\n") + "\n", 4),
        ("too few fields", "mtls-mirror-manifest\t1\nhttps://a/\t=x\n#end\t1\n", 2),
        ("bad number", "mtls-mirror-manifest\t1\nhttps://a/\t\tOK\t\t\t\t\t\t\t\n#end\t1\n", 2),
        ("bad escape", "mtls-mirror-manifest\t1\nhttps://a/\\q\t\t\t\t\t\t\t\t\t\n#end\t1\n", 2),
        ("optional without =", "mtls-mirror-manifest\t1\nhttps://a/\tx\t\t\t\t\t\t\t\t\n#end\t1\n", 2),
        ("bad date", "mtls-mirror-manifest\t1\nhttps://a/\t\t\t\t\t\t\t\tnan\t\n#end\t1\n", 2),
        ("duplicate", "mtls-mirror-manifest\t1\nhttps://a/\t\t\t\t\t\t\t\t\t\nhttps://a/\t\t\t\t\t\t\t\t\t\n#end\t2\n", 3),
        ("wrong count", "mtls-mirror-manifest\t1\n#end\t5\n", 2),
        ("data after end", "mtls-mirror-manifest\t1\n#end\t0\nhttps://a/\t\t\t\t\t\t\t\t\t\n", 3),
        ("invalid UTF-8", "mtls-mirror-manifest\t1\nhttps://a/\u{FFFD}\t\t\t\t\t\t\t\t\t\n#end\t1\n", 2),
        // Faults in fields the manifest's index checks without decoding them.
        ("bad escape in a later reference",
         "mtls-mirror-manifest\t1\nhttps://a/\t\t\t\t\t\t\t\t\t\thttps://b/\thttps://c/\\q\n#end\t1\n", 2),
        ("invalid UTF-8 in a later reference",
         "mtls-mirror-manifest\t1\nhttps://a/\t\t\t\t\t\t\t\t\t\thttps://b/\thttps://c/\u{FFFD}\n#end\t1\n", 2),
        ("invalid UTF-8 in an ETag", "mtls-mirror-manifest\t1\nhttps://a/\t\t\t\t\t\t=\u{FFFD}\t\t\t\n#end\t1\n", 2),
        ("bad escape in a content type", "mtls-mirror-manifest\t1\nhttps://a/\t\t\t=a\\z\t\t\t\t\t\t\n#end\t1\n", 2),
        // Two faults: both readers name the first that decoding meets (the date, then the ETag).
        ("bad date and a bad ETag", "mtls-mirror-manifest\t1\nhttps://a/\t\t\t\t\t\t=\\q\t\tnan\t\n#end\t1\n", 2),
        ("unknown state and a bad ETag",
         "mtls-mirror-manifest\t2\nhttps://a/\t\t\t\t\t\t=\\q\t\t\t\t=nonsense\n#end\t1\n", 2),
    ]

    /// The bytes of a corruption case: the "invalid UTF-8" cases get a byte sequence that is
    /// not UTF-8 where their text has U+FFFD.
    static func corruptionBytes(_ name: String, _ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        if name.hasPrefix("invalid UTF-8"), let index = bytes.firstIndex(of: 0xEF) {
            bytes.replaceSubrange(index..<(index + 3), with: [0xC3, 0x28, 0x41])
        }
        return bytes
    }

    @Test(arguments: corruptions)
    func corruptFilesNameTheLine(name: String, text: String, line: Int) throws {
        let bytes = Self.corruptionBytes(name, text)
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        try store.write(bytes, to: "m.tsv")
        do {
            _ = try Manifest.load(from: store, at: "m.tsv")
            Issue.record("\(name): loaded a corrupt manifest")
        } catch {
            guard case .manifestCorrupt(let path, let reportedLine, let reason) = error else {
                Issue.record("\(name): unexpected error \(error)")
                return
            }
            #expect(path == "m.tsv")
            #expect(reportedLine == line, "\(name): \(reason)")
            #expect(error.summary.contains("line \(line)"))
            #expect(error.category == .io)
        }
    }

    @Test func theSavedFileIsReadableText() throws {
        let text = String(decoding: Manifest(entries: [Self.awkward]).encoded(), as: UTF8.self)
        #expect(text == "mtls-mirror-manifest\t2\n"
            + "http://a.example/x\t=\t\t\t0\t\t==\\t\\\\n\\n\\r\\\\\t=\t\t=timeout\\tafter 30 s\\nretrying \\\\ later\t\n"
            + "#end\t1\n")
        var stale = Self.awkward
        stale.stale = ManifestEntry.Stale(depth: 4, isRequisite: true)
        let staleText = String(decoding: Manifest(entries: [stale]).encoded(), as: UTF8.self)
        #expect(staleText.contains("retrying \\\\ later\t=stale:4:requisite\n"), "\(staleText)")
    }

    @Test func staleEntriesRoundTripAndVersionOneFilesAreStillRead() throws {
        var stale = Self.awkward
        stale.stale = ManifestEntry.Stale(depth: 7, isRequisite: false)
        let decoded = try Manifest.decode(Manifest(entries: [stale]).encoded(), path: "m.tsv")
        #expect(decoded.entry(forKey: "http://a.example/x")?.stale == ManifestEntry.Stale(depth: 7, isRequisite: false))
        // A version 1 file (no state field): its references start right after the error.
        let v1 = "mtls-mirror-manifest\t1\nhttps://a/\t=index.html\t200\t\t3\t\t\t\t\t\thttps://a/b\t+https://a/c.png\n#end\t1\n"
        let old = try Manifest.decode(Array(v1.utf8), path: "m.tsv")
        let entry = try #require(old.entry(forKey: "https://a/"))
        #expect(entry.references == ["https://a/b", "+https://a/c.png"])
        #expect(entry.stale == nil && entry.status == 200)
        // A state this version does not know is a corrupt file, not a silent drop.
        let unknown = "mtls-mirror-manifest\t2\nhttps://a/\t\t\t\t\t\t\t\t\t\t=fresh\n#end\t1\n"
        #expect(throws: StoreError.self) { try Manifest.decode(Array(unknown.utf8), path: "m.tsv") }
    }
}
