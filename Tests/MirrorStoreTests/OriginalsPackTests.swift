import Foundation
import MirrorCore
import Testing
@testable import MirrorStore

@Suite struct OriginalsPackTests {
    static func original(_ i: Int) -> [UInt8] { Array("<!doctype html><p>page \(i)</p>\(String(repeating: "x", count: i * 37))".utf8) }

    /// Appended originals come back byte for byte from the pack that wrote them and, through the
    /// index, from a reader; the same bytes are stored once; files are private.
    @Test func appendsDeduplicatesAndReadsBackThroughTheIndex() throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        let pack = try OriginalsPack.create(in: fileSystem)
        for i in 0..<40 { try pack.append(Self.original(i), sha256: SHA256Digest.hex(Self.original(i))) }
        try pack.append(Self.original(3), sha256: SHA256Digest.hex(Self.original(3)))  // again
        try pack.append([], sha256: SHA256Digest.hex([]))
        #expect(pack.count == 41)
        #expect(try pack.read(SHA256Digest.hex(Self.original(7))) == Self.original(7))
        #expect(try pack.read(SHA256Digest.hex([])) == [])
        #expect(try pack.read(String(repeating: "0", count: 64)) == nil)
        try pack.writeIndex(to: fileSystem)
        let size = (0..<40).map { Self.original($0).count }.reduce(0, +)
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path + "/" + OriginalsPack.packPath)[.size] as? Int == size)
        #expect(permissionBits(fileSystem.absolutePath(OriginalsPack.packPath)) == 0o600)
        #expect(permissionBits(fileSystem.absolutePath(OriginalsPack.indexPath)) == 0o600)

        let reader = try #require(OriginalsPack.open(in: fileSystem))
        #expect(reader.count == 41)
        for i in 0..<40 { #expect(try reader.read(SHA256Digest.hex(Self.original(i))) == Self.original(i)) }

        // A new snapshot's pack takes an original over from the previous one.
        let next = try SecureFileSystem(root: folder.path + "/next")
        let copy = try OriginalsPack.create(in: next)
        #expect(try copy.copy(SHA256Digest.hex(Self.original(5)), from: reader))
        #expect(try !copy.copy(String(repeating: "a", count: 64), from: reader))
        #expect(try copy.read(SHA256Digest.hex(Self.original(5))) == Self.original(5))
        #expect(copy.count == 1)
    }

    /// Appends are buffered and written in chunks: reads in between (of bytes still buffered,
    /// or already written) and a reader after the index see every original exactly.
    @Test func bufferedAppendsReadBackAcrossChunks() throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        let pack = try OriginalsPack.create(in: fileSystem)
        let originals = (0..<700).map { i in Array("\(i):".utf8) + [UInt8](repeating: UInt8(i % 251), count: 300 + (i * 97) % 1500) }
        for (i, bytes) in originals.enumerated() {
            try pack.append(bytes, sha256: SHA256Digest.hex(bytes))
            if i % 50 == 0 { #expect(try pack.read(SHA256Digest.hex(bytes)) == bytes) }             // still buffered
            if i % 70 == 1 { #expect(try pack.read(SHA256Digest.hex(originals[i / 2])) == originals[i / 2]) }
        }
        let total = originals.map(\.count).reduce(0, +)
        #expect(total > 2 * OriginalsPack.chunkSize)
        try pack.writeIndex(to: fileSystem)
        #expect(try FileManager.default.attributesOfItem(atPath: fileSystem.absolutePath(OriginalsPack.packPath))[.size] as? Int == total)
        let reader = try #require(OriginalsPack.open(in: fileSystem))
        for bytes in originals { #expect(try reader.read(SHA256Digest.hex(bytes)) == bytes) }
    }

    static func inode(_ path: String) -> ino_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : 0
    }

    /// A published pack of `count` originals (about 900 KB: several chunks), and its originals.
    static func published(in root: String, count: Int = 600) throws -> (OriginalsPack, [[UInt8]]) {
        let fileSystem = try SecureFileSystem(root: root)
        let pack = try OriginalsPack.create(in: fileSystem)
        let originals = (0..<count).map { i in Array("\(i):".utf8) + [UInt8](repeating: UInt8(i % 251), count: 200 + (i * 89) % 2800) }
        for bytes in originals { try pack.append(bytes, sha256: SHA256Digest.hex(bytes)) }
        try pack.writeIndex(to: fileSystem)
        return (try #require(OriginalsPack.open(in: fileSystem)), originals)
    }

    /// A refresh that takes over every original of the previous pack and adds none (an
    /// unchanged refresh) links the previous pack and index: same inodes, nothing copied.
    @Test func takingOverEveryOriginalLinksThePreviousPack() throws {
        let folder = try TemporaryFolder()
        let (previous, originals) = try Self.published(in: folder.path + "/a")
        let fileSystem = try SecureFileSystem(root: folder.path + "/b")
        let pack = try OriginalsPack.create(in: fileSystem)
        for bytes in originals.reversed() { #expect(try pack.copy(SHA256Digest.hex(bytes), from: previous)) }
        #expect(try !pack.copy(String(repeating: "a", count: 64), from: previous))
        #expect(pack.count == originals.count)
        #expect(try pack.read(SHA256Digest.hex(originals[17])) == originals[17], "readable before the index is written")
        try pack.append(originals[3], sha256: SHA256Digest.hex(originals[3]))  // held already: not added
        try pack.writeIndex(to: fileSystem)
        for path in [OriginalsPack.packPath, OriginalsPack.indexPath] {
            #expect(Self.inode(fileSystem.absolutePath(path)) == Self.inode(folder.path + "/a/" + path), "\(path) linked")
        }
        #expect(!FileManager.default.fileExists(atPath: fileSystem.absolutePath(OriginalsPack.packPath + ".previous")))
        #expect(permissionBits(fileSystem.absolutePath(OriginalsPack.packPath)) == 0o600)
        #expect(try pack.read(SHA256Digest.hex(originals[599])) == originals[599])
        let reader = try #require(OriginalsPack.open(in: fileSystem))
        #expect(reader.count == originals.count)
        for bytes in originals { #expect(try reader.read(SHA256Digest.hex(bytes)) == bytes) }
    }

    /// Taking over part of the previous pack, or adding originals of its own, gives a pack of
    /// its own: what was taken over is copied, in runs, byte for byte, and the previous pack
    /// is left as it was.
    @Test(arguments: [false, true])
    func takingOverPartOfThePreviousPackCopiesIt(addsOwn: Bool) throws {
        let folder = try TemporaryFolder()
        let (previous, originals) = try Self.published(in: folder.path + "/a")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/a/" + OriginalsPack.packPath))
        let fileSystem = try SecureFileSystem(root: folder.path + "/b")
        let pack = try OriginalsPack.create(in: fileSystem)
        // Runs with gaps, and everything when the pack adds its own originals.
        let taken = addsOwn ? Array(originals.indices) : originals.indices.filter { $0 % 7 != 3 && !(200..<260).contains($0) }
        for i in taken { #expect(try pack.copy(SHA256Digest.hex(originals[i]), from: previous)) }
        let own = addsOwn ? [Array("new original".utf8)] : []
        for bytes in own { try pack.append(bytes, sha256: SHA256Digest.hex(bytes)) }
        try pack.writeIndex(to: fileSystem)
        #expect(Self.inode(fileSystem.absolutePath(OriginalsPack.packPath)) != Self.inode(folder.path + "/a/" + OriginalsPack.packPath))
        let expected = taken.map { originals[$0] } + own
        let size = expected.map(\.count).reduce(0, +)
        #expect(try FileManager.default.attributesOfItem(atPath: fileSystem.absolutePath(OriginalsPack.packPath))[.size] as? Int == size)
        let reader = try #require(OriginalsPack.open(in: fileSystem))
        #expect(reader.count == expected.count)
        for bytes in expected { #expect(try reader.read(SHA256Digest.hex(bytes)) == bytes) }
        #expect(try reader.read(SHA256Digest.hex(originals[3])) == nil || taken.contains(3))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/a/" + OriginalsPack.packPath)) == before)
    }

    /// The previous pack's file vanished during the run (its snapshot was deleted): the
    /// originals taken over are copied from the pack still open.
    @Test func aVanishedPreviousPackIsCopiedFromTheOpenFile() throws {
        let folder = try TemporaryFolder()
        let (previous, originals) = try Self.published(in: folder.path + "/a", count: 50)
        let fileSystem = try SecureFileSystem(root: folder.path + "/b")
        let pack = try OriginalsPack.create(in: fileSystem)
        for bytes in originals { #expect(try pack.copy(SHA256Digest.hex(bytes), from: previous)) }
        try FileManager.default.removeItem(atPath: folder.path + "/a/" + OriginalsPack.packPath)
        try pack.writeIndex(to: fileSystem)
        let reader = try #require(OriginalsPack.open(in: fileSystem))
        for bytes in originals { #expect(try reader.read(SHA256Digest.hex(bytes)) == bytes) }
        #expect(!FileManager.default.fileExists(atPath: fileSystem.absolutePath(OriginalsPack.packPath + ".previous")))
    }

    /// The table keeps a fingerprint of each digest; the whole digests of what is copied over come
    /// from the previous index file. If that file changed since the pack was opened, the copy
    /// fails instead of writing an index of other digests; a published pack takes no appends.
    @Test func copyingReadsWholeDigestsFromThePreviousIndex() throws {
        let folder = try TemporaryFolder()
        let (previous, originals) = try Self.published(in: folder.path + "/a", count: 40)
        let fileSystem = try SecureFileSystem(root: folder.path + "/b")
        let pack = try OriginalsPack.create(in: fileSystem)
        for bytes in originals.prefix(30) { #expect(try pack.copy(SHA256Digest.hex(bytes), from: previous)) }
        // Another file under the previous index's name: same offsets and lengths, other digests.
        let previousIndex = folder.path + "/a/" + OriginalsPack.indexPath
        let text = try String(contentsOfFile: previousIndex, encoding: .utf8)
        let changed = text.split(separator: "\n").map { line in
            line.hasPrefix("mtls-mirror") ? String(line) : String(repeating: "0", count: 64) + line.dropFirst(64)
        }.joined(separator: "\n") + "\n"
        try FileManager.default.removeItem(atPath: previousIndex)
        try Data(changed.utf8).write(to: URL(fileURLWithPath: previousIndex))
        #expect(throws: StoreError.io(operation: "read", path: OriginalsPack.indexPath, errno: EIO)) {
            try pack.writeIndex(to: fileSystem)
        }
        #expect(throws: StoreError.self) {
            try previous.append(Array("more".utf8), sha256: SHA256Digest.hex(Array("more".utf8)))
        }
    }

    /// The table finds an original wherever its index line puts it: lines out of the file's
    /// order, past a gap, each read back whole.
    @Test func originalsOutOfTheFilesOrderReadBack() throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        let pack = try OriginalsPack.create(in: fileSystem)
        let originals = (0..<150).map { Self.original($0) }
        for bytes in originals { try pack.append(bytes, sha256: SHA256Digest.hex(bytes)) }
        try pack.writeIndex(to: fileSystem)
        var offsets: [Int] = []
        var offset = 0
        for bytes in originals { offsets.append(offset); offset += bytes.count }
        // Every third original left out, the rest listed from the last to the first.
        let listed = originals.indices.filter { $0 % 3 != 1 }.reversed()
        let lines = listed.map { "\(SHA256Digest.hex(originals[$0]))\t\(offsets[$0])\t\(originals[$0].count)\n" }
        try fileSystem.write(Array((OriginalsPack.header + "\n" + lines.joined()).utf8), to: OriginalsPack.indexPath)
        let reopened = try #require(OriginalsPack.open(in: fileSystem))
        #expect(reopened.count == listed.count)
        for (i, bytes) in originals.enumerated() {
            #expect(try reopened.read(SHA256Digest.hex(bytes)) == (i % 3 == 1 ? nil : bytes), "\(i)")
        }
    }

    /// A missing or damaged index makes the pack unusable rather than trusted: the refresh
    /// then fetches those documents again.
    @Test func aDamagedIndexOrPackIsRefused() throws {
        let folder = try TemporaryFolder()
        let fileSystem = try SecureFileSystem(root: folder.path)
        #expect(OriginalsPack.open(in: fileSystem) == nil)  // none yet
        let pack = try OriginalsPack.create(in: fileSystem)
        try pack.append(Self.original(1), sha256: SHA256Digest.hex(Self.original(1)))
        try pack.writeIndex(to: fileSystem)
        #expect(OriginalsPack.open(in: fileSystem) != nil)
        let good = try fileSystem.read(OriginalsPack.indexPath)
        let sha = SHA256Digest.hex(Self.original(1))
        let damaged: [String] = [
            "",
            "something else\t1\n",
            "mtls-mirror-originals\t1\n\(sha)\t0\n",
            "mtls-mirror-originals\t1\n\(sha)\t0\t99999\n",           // past the end of the pack
            "mtls-mirror-originals\t1\n\(sha)\t-1\t3\n",
            "mtls-mirror-originals\t1\nXYZ\t0\t3\n",
            "mtls-mirror-originals\t1\n\(sha.uppercased())\t0\t3\n",
            // One original listed twice: a table position would no longer be a line.
            "mtls-mirror-originals\t1\n\(sha)\t0\t1\n\(sha)\t1\t1\n",
        ]
        for text in damaged {
            try fileSystem.write(Array(text.utf8), to: OriginalsPack.indexPath)
            #expect(OriginalsPack.open(in: fileSystem) == nil, "\(text)")
        }
        try fileSystem.write(good, to: OriginalsPack.indexPath)
        #expect(OriginalsPack.open(in: fileSystem) != nil)
        // A truncated pack: its index now points past the end.
        #expect(truncate(fileSystem.absolutePath(OriginalsPack.packPath), 5) == 0)
        #expect(OriginalsPack.open(in: fileSystem) == nil)
    }
}
