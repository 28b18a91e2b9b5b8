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
