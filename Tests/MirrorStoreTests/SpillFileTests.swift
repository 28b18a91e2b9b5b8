import Foundation
import MirrorCore
import Testing
@testable import MirrorStore

@Suite struct SpillFileTests {
    static func record(_ i: Int) -> [UInt8] { Array("record \(i) ".utf8) + Array(repeating: UInt8(truncatingIfNeeded: i), count: i % 700) }

    /// Records come back byte for byte, from the buffer before it is written out and from the
    /// file after, across many flushes; offsets follow each other; the file is private. With
    /// either page cache too: records that straddle pages, and records on the last page while
    /// it is only partly written and again once it is whole.
    @Test(arguments: [nil, SpillFile.ReadPattern.runs, .scattered])
    func recordsReadBackBeforeAndAfterTheyAreWrittenOut(_ reads: SpillFile.ReadPattern?) throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        try fileSystem.createDirectory("_mirror/tmp")
        let spill = try SpillFile.create(in: fileSystem, at: "_mirror/tmp/test.spill", reads: reads)
        var offsets: [Int64] = []
        var expectedOffset: Int64 = 0
        for i in 0..<3_000 {
            let offset = spill.append(Self.record(i))
            #expect(offset == expectedOffset)
            expectedOffset += Int64(Self.record(i).count)
            offsets.append(offset)
            // The latest record is readable at once, whether or not it was written out yet.
            #expect(try spill.read(at: offset, count: Self.record(i).count) == Self.record(i))
            // And an older one: on a page written out whole, in part, or not yet.
            #expect(try spill.read(at: offsets[i / 2], count: Self.record(i / 2).count) == Self.record(i / 2))
        }
        #expect(spill.size == expectedOffset)
        #expect(expectedOffset > 3 * Int64(SpillFile.flushBytes), "the test must cross several flushes")
        for i in stride(from: 0, to: 3_000, by: 7) {
            #expect(try spill.read(at: offsets[i], count: Self.record(i).count) == Self.record(i))
        }
        spill.flush()
        let path = fileSystem.absolutePath("_mirror/tmp/test.spill")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64 == expectedOffset)
        #expect(permissionBits(path) == 0o600)
        #expect(try spill.readString(at: offsets[12], count: 9) == "record 12")
        #expect(spill.failure == nil)
        spill.remove()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A page read once is served from memory: a second read of a record on it does not go to
    /// the file (shown by changing the file behind the spill's back, which nothing else does).
    /// Pages that share a slot replace each other and are read again.
    @Test func aCachedPageIsNotReadAgain() throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        try fileSystem.createDirectory("tmp")
        let spill = try SpillFile.create(in: fileSystem, at: "tmp/c.spill", reads: .scattered)
        // 300 pages of 4 KiB, each starting with its number: pages 0 and 256 share a slot.
        for page in 0..<300 {
            let label = Array(String(format: "page %05d ", page).utf8)
            spill.append(label + Array(repeating: UInt8(ascii: "."), count: 4_096 - label.count))
        }
        spill.flush()
        #expect(try spill.readString(at: 4_096 * 3, count: 10) == "page 00003")
        let descriptor = open(fileSystem.absolutePath("tmp/c.spill"), O_WRONLY)
        #expect(descriptor >= 0)
        let changed = Array("PAGE 00003".utf8)
        #expect(changed.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 4_096 * 3) } == 10)
        close(descriptor)
        #expect(try spill.readString(at: 4_096 * 3 + 5, count: 5) == "00003", "the cached page")
        #expect(try spill.readString(at: 4_096 * 3, count: 4) == "page", "still the cached page")
        #expect(try spill.readString(at: 4_096 * 256, count: 10) == "page 00256")
        #expect(try spill.readString(at: 0, count: 10) == "page 00000")
        // Page 259 took page 3's slot: page 3 is read from the file again.
        #expect(try spill.readString(at: 4_096 * 259, count: 10) == "page 00259")
        #expect(try spill.readString(at: 4_096 * 3, count: 10) == "PAGE 00003")
        // A record across two pages is read on its own.
        #expect(try spill.readString(at: 4_096 * 10 - 2, count: 12) == "..page 00010")
    }

    /// Which page holds a record: one that lies wholly in a page written out in full; none
    /// for a record across two pages or on a page the file does not hold whole yet.
    @Test func aPageHoldsOnlyWholeRecordsOfWrittenPages() {
        var cache = SpillPageCache(.init(pageSize: 100, slots: 4))
        #expect(cache.page(holding: 0, count: 100, flushedSize: 100) == 0)
        #expect(cache.page(holding: 150, count: 50, flushedSize: 250) == 1)
        #expect(cache.page(holding: 150, count: 51, flushedSize: 1_000) == nil, "across two pages")
        #expect(cache.page(holding: 210, count: 10, flushedSize: 250) == nil, "page 2 is written in part")
        #expect(cache.page(holding: 210, count: 10, flushedSize: 300) == 2)
        #expect(cache.start(of: 2) == 200)
        #expect(cache.bytes(of: 5) == nil)
        cache.keep(5, bytes: [5])
        #expect(cache.bytes(of: 5) == [5])
        cache.keep(9, bytes: [9])
        #expect(cache.bytes(of: 5) == nil && cache.bytes(of: 9) == [9], "pages 5 and 9 share slot 1")
    }

    /// A read past what was appended is an error, not a crash or stale bytes.
    @Test func aReadBeyondTheEndFails() throws {
        let spill = SpillFile.inMemory()
        let offset = spill.append(utf8: "abc")
        #expect(try spill.readString(at: offset, count: 3) == "abc")
        #expect(throws: StoreError.self) { try spill.read(at: offset, count: 4) }
        #expect(throws: StoreError.self) { try spill.read(at: 10, count: 1) }
    }

    /// A leftover file of the same name (a run that died) is replaced, never appended to, and
    /// a symbolic link in its place is not followed.
    @Test func aLeftoverFileIsReplacedAndALinkIsNotFollowed() throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        try fileSystem.createDirectory("tmp")
        try fileSystem.createFile(Array("old".utf8), at: "tmp/a.spill")
        let spill = try SpillFile.create(in: fileSystem, at: "tmp/a.spill")
        #expect(spill.append(utf8: "new") == 0)
        spill.flush()
        #expect(try String(contentsOfFile: fileSystem.absolutePath("tmp/a.spill"), encoding: .utf8) == "new")
        let outside = folder.path + "/outside"
        #expect(FileManager.default.createFile(atPath: outside, contents: Data("keep".utf8)))
        try FileManager.default.createSymbolicLink(atPath: fileSystem.absolutePath("tmp/b.spill"), withDestinationPath: outside)
        let replaced = try SpillFile.create(in: fileSystem, at: "tmp/b.spill")
        replaced.append(utf8: "x")
        replaced.flush()
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep")
    }
}
