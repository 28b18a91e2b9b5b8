import Foundation
import Testing
@testable import MirrorStore
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
