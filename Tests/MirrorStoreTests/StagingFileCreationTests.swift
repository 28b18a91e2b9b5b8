import Foundation
import Testing
@testable import MirrorStore
import MirrorTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `SecureFileSystem.createFile`: files written unnamed and linked under their names (issue
/// #27), with the guarantees of a creation by name.
@Suite struct StagingFileCreationTests {
    @Test func createsThePrivateFileWithItsBytesAndNothingElse() throws {
        let folder = try TemporaryFolder()
        let previous = umask(0)
        defer { umask(previous) }
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        try store.createDirectory("docs")
        let bytes = [UInt8]((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try store.createFile(bytes, at: "docs/page.html")
        #expect(try store.read("docs/page.html") == bytes)
        #expect(permissionBits(folder.path + "/docs/page.html") == 0o600)
        var info = stat()
        #expect(lstat(folder.path + "/docs/page.html", &info) == 0)
        #expect(info.st_nlink == 1)
        #expect((info.st_mode & S_IFMT) == S_IFREG)
        #expect(folder.allEntries().sorted() == ["docs", "docs/page.html"])
    }

    @Test func anEmptyFileIsCreatedToo() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        try store.createFile([], at: "empty.css")
        #expect(try store.read("empty.css") == [])
    }

    @Test func anExistingFileIsKeptUnlessReplacing() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        try store.createFile(Array("first".utf8), at: "a.html")
        do {
            try store.createFile(Array("second".utf8), at: "a.html")
            Issue.record("a second file of the same name was created")
        } catch {
            guard case .io(_, _, EEXIST) = error else { Issue.record("unexpected error \(error)"); return }
        }
        #expect(try store.read("a.html") == Array("first".utf8))
        try store.createFile(Array("third".utf8), at: "a.html", replacing: true)
        #expect(try store.read("a.html") == Array("third".utf8))
        #expect(folder.allEntries() == ["a.html"])
    }

    @Test func aSymbolicLinkAtTheNameIsNeverFollowed() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let target = outside.path + "/victim.txt"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("keep".utf8)))
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        #expect(symlink(target, folder.path + "/link.html") == 0)
        do {
            try store.createFile(Array("evil".utf8), at: "link.html")
            Issue.record("created through a symbolic link")
        } catch {
            guard case .io(_, _, EEXIST) = error else { Issue.record("unexpected error \(error)"); return }
        }
        // Replacing swaps the link itself for a file; its target is untouched.
        try store.createFile(Array("mine".utf8), at: "link.html", replacing: true)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        var info = stat()
        #expect(lstat(folder.path + "/link.html", &info) == 0)
        #expect((info.st_mode & S_IFMT) == S_IFREG)
        #expect(try store.read("link.html") == Array("mine".utf8))
    }

    @Test func aMissingFolderIsAnErrorThatNamesThePath() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        do {
            try store.createFile(Array("x".utf8), at: "missing/page.html")
            Issue.record("created in a folder that does not exist")
        } catch {
            guard case .io(_, let path, ENOENT) = error else { Issue.record("unexpected error \(error)"); return }
            #expect(path == "missing/page.html")
        }
        #expect(folder.allEntries().isEmpty)
    }

    @Test func twoThreadsFillingOneFolderGetEveryFileWhole() async throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        try store.createDirectory("pages")
        let count = 400
        func bytes(_ index: Int) -> [UInt8] { [UInt8](repeating: UInt8(index % 251), count: 1_000 + index * 37) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<2 {
                group.addTask {
                    for index in stride(from: lane, to: count, by: 2) {
                        try store.createFile(bytes(index), at: "pages/p\(index).html")
                    }
                }
            }
            try await group.waitForAll()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/pages")
        #expect(names.count == count)
        for index in [0, 1, 199, 398, 399] {
            #expect(try store.read("pages/p\(index).html") == bytes(index))
        }
    }
}

/// `createFile(pieces:)` and `replaceFile(pieces:)`: a file written from pieces with
/// `pwritev` holds the pieces joined, however many there are (issue #27).
@Suite struct PiecewiseFileCreationTests {
    /// `count` pieces of varied lengths (some empty).
    private func pieces(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let length = index % 7 == 3 ? 0 : Int.random(in: 1...300, using: &generator)
            return (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
    }

    private func write(_ parts: [[UInt8]], to store: SecureFileSystem, at path: String, replacing: Bool = false) throws {
        var buffers: [UnsafeMutableRawBufferPointer] = []
        defer { buffers.forEach { $0.deallocate() } }
        for part in parts {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: part.count, alignment: 1)
            buffer.copyBytes(from: part)
            buffers.append(buffer)
        }
        let views = buffers.map { UnsafeRawBufferPointer($0) }
        if replacing { try store.replaceFile(pieces: views, at: path) } else { try store.createFile(pieces: views, at: path) }
    }

    @Test(arguments: [0, 1, 2, 1_023, 1_024, 1_025, 5_000])
    func thePiecesJoinedAndNothingElse(count: Int) throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        let parts = pieces(count, seed: UInt64(count) + 7)
        try write(parts, to: store, at: "page.html")
        #expect(try store.read("page.html") == parts.flatMap { $0 })
        #expect(permissionBits(folder.path + "/page.html") == 0o600)
        #expect(folder.allEntries() == ["page.html"])
    }

    @Test func anExistingFileIsKeptUnlessReplaced() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path, syncEachFile: false)
        try store.createFile(Array("first".utf8), at: "a.html")
        do {
            try write([Array("sec".utf8), Array("ond".utf8)], to: store, at: "a.html")
            Issue.record("a second file of the same name was created")
        } catch let error as StoreError {
            guard case .io(_, _, EEXIST) = error else { Issue.record("unexpected error \(error)"); return }
        }
        #expect(try store.read("a.html") == Array("first".utf8))
        let parts = pieces(2_000, seed: 99)
        try write(parts, to: store, at: "a.html", replacing: true)
        #expect(try store.read("a.html") == parts.flatMap { $0 })
        #expect(folder.allEntries() == ["a.html"])
    }

    /// A descriptor that cannot be written: the `errno` of the failed `pwritev` comes back.
    @Test func aFailedWriteReportsItsError() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/read-only"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let bytes: [UInt8] = Array(repeating: 7, count: 10)
        let code = bytes.withUnsafeBytes { PositionalIO.write(pieces: [$0, $0], to: descriptor, at: 0) }
        #expect(code == EBADF)
        #expect(PositionalIO.write(pieces: [], to: descriptor, at: 0) == 0)
    }
}
