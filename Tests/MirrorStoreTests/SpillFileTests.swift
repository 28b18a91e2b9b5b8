import Foundation
import MirrorCore
import Testing
@testable import MirrorStore

@Suite struct SpillFileTests {
    static func record(_ i: Int) -> [UInt8] { Array("record \(i) ".utf8) + Array(repeating: UInt8(truncatingIfNeeded: i), count: i % 700) }

    /// Records come back byte for byte, from the buffer before it is written out and from the
    /// file after, across many flushes; offsets follow each other; the file is private.
    @Test func recordsReadBackBeforeAndAfterTheyAreWrittenOut() throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        try fileSystem.createDirectory("_mirror/tmp")
        let spill = try SpillFile.create(in: fileSystem, at: "_mirror/tmp/test.spill")
        var offsets: [Int64] = []
        var expectedOffset: Int64 = 0
        for i in 0..<3_000 {
            let offset = spill.append(Self.record(i))
            #expect(offset == expectedOffset)
            expectedOffset += Int64(Self.record(i).count)
            offsets.append(offset)
            // The latest record is readable at once, whether or not it was written out yet.
            #expect(try spill.read(at: offset, count: Self.record(i).count) == Self.record(i))
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
