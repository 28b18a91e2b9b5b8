import Foundation
import Testing
@testable import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SecureFileSystemTests {
    @Test func createsPrivateDirectoriesAndFilesWhateverTheUmask() throws {
        let folder = try TemporaryFolder()
        let previous = umask(0)
        defer { umask(previous) }
        let store = try SecureFileSystem(root: folder.path + "/site/inner")
        try store.write(Array("hello".utf8), to: "a/b/c.html")
        #expect(permissionBits(folder.path + "/site") == 0o700)
        #expect(permissionBits(store.root) == 0o700)
        #expect(permissionBits(store.root + "/a") == 0o700)
        #expect(permissionBits(store.root + "/a/b") == 0o700)
        #expect(permissionBits(store.root + "/a/b/c.html") == 0o600)
        #expect(try store.read("a/b/c.html") == Array("hello".utf8))
    }

    @Test func replacesAtomicallyAndLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        try store.write(Array("one".utf8), to: "x/f.txt")
        try store.write(Array("two".utf8), to: "x/f.txt")
        #expect(try store.read("x/f.txt") == Array("two".utf8))
        #expect(folder.allEntries().sorted() == ["x", "x/f.txt"])
    }

    @Test func streamsChunksAndCommits() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        let writer = try store.beginWrite("big/body.bin")
        var expected: [UInt8] = []
        for index in 0..<100 {
            let chunk = [UInt8](repeating: UInt8(index), count: 10_000)
            try writer.append(chunk)
            expected += chunk
        }
        #expect(writer.bytesWritten == 1_000_000)
        // Not visible under its final name before commit.
        #expect(throws: StoreError.self) { try store.read("big/body.bin") }
        #expect(folder.allEntries().contains { $0.hasPrefix("big/" + AtomicFileWriter.temporaryPrefix) })
        try writer.commit()
        #expect(try store.read("big/body.bin") == expected)
        #expect(folder.allEntries().sorted() == ["big", "big/body.bin"])
        #expect(throws: StoreError.writerFinished(path: "big/body.bin")) { try writer.append([1]) }
        #expect(throws: StoreError.writerFinished(path: "big/body.bin")) { try writer.commit() }
    }

    @Test func abortAndDroppingRemoveTheTemporaryFile() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        try store.write(Array("old".utf8), to: "keep.txt")
        let writer = try store.beginWrite("keep.txt")
        try writer.append(Array("new".utf8))
        writer.abort()
        do {
            let dropped = try store.beginWrite("dropped.txt")
            try dropped.append(Array("partial".utf8))
        }
        #expect(try store.read("keep.txt") == Array("old".utf8))
        #expect(folder.allEntries() == ["keep.txt"])
    }

    @Test func refusesSymlinksOnTheWayAndAtTheEnd() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        #expect(symlink(outside.path, folder.path + "/escape") == 0)
        #expect(throws: StoreError.symlinkRefused(path: "escape")) {
            try store.write(Array("x".utf8), to: "escape/evil.txt")
        }
        #expect(throws: StoreError.symlinkRefused(path: "escape")) { try store.read("escape/anything") }
        try "secret".write(toFile: outside.path + "/secret.txt", atomically: false, encoding: .utf8)
        #expect(symlink(outside.path + "/secret.txt", folder.path + "/link.txt") == 0)
        #expect(throws: StoreError.symlinkRefused(path: "link.txt")) { try store.read("link.txt") }
        // Writing over a final symlink replaces the link itself, never the file it points to.
        try store.write(Array("mine".utf8), to: "link.txt")
        #expect(try String(contentsOfFile: outside.path + "/secret.txt", encoding: .utf8) == "secret")
        #expect(try store.read("link.txt") == Array("mine".utf8))
        #expect(outside.allEntries() == ["secret.txt"])
    }

    @Test func aFileInTheWayOfADirectoryIsReported() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        try store.write(Array("x".utf8), to: "page")
        #expect(throws: StoreError.notADirectory(path: "page")) { try store.write([1], to: "page/x.html") }
        try store.write(Array("x".utf8), to: "dir/file.txt")
        #expect(throws: StoreError.self) { try store.write([1], to: "dir") }
        #expect(folder.allEntries().sorted() == ["dir", "dir/file.txt", "page"])
    }

    @Test(arguments: [
        ("", "empty path"), ("/etc/passwd", "absolute path"), ("a/../b", "'..' component"),
        ("..", "'..' component"), ("./a", "'.' component"), ("a//b", "empty component"),
        ("a/", "empty component"), ("a\u{0}b", "NUL byte"),
        // A "/" followed by a combining mark is one Swift Character: split by Characters, the
        // path would be one component that is not "..", and openat would then climb out.
        ("../\u{0301}escaped", "'..' component"), ("a/../\u{0301}b", "'..' component"),
    ])
    func refusesUnsafeRelativePaths(path: String, reason: String) throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        #expect(throws: StoreError.unsafePath(path: path, reason: reason)) { try store.write([1], to: path) }
        #expect(folder.allEntries().isEmpty)
    }

    @Test func missingFilesAreReportedAsNotFoundAndRemovalIsQuiet() throws {
        let folder = try TemporaryFolder()
        let store = try SecureFileSystem(root: folder.path)
        do {
            _ = try store.read("nothing/here.txt")
            Issue.record("read of a missing file succeeded")
        } catch {
            #expect(error.isNotFound)
            #expect(error.category == .io)
            #expect(error.summary.contains("No such file"))
        }
        try store.removeFile("nothing/here.txt")
        try store.write([1], to: "gone.txt")
        try store.removeFile("gone.txt")
        #expect(folder.allEntries().isEmpty)
    }

    @Test func errorsExplainThemselves() {
        let full = StoreError.diskFull(path: "a/b.html")
        #expect(full.category == .io)
        #expect(full.summary.contains("a/b.html"))
        #expect(full.hint.contains("free disk space"))
        #expect(StoreError.from(errno: ENOSPC, operation: "write", path: "x") == .diskFull(path: "x"))
        #expect(StoreError.from(errno: EIO, operation: "write", path: "x") == .io(operation: "write", path: "x", errno: EIO))
        let denied = StoreError.io(operation: "openat", path: "p", errno: EACCES)
        #expect(denied.summary.contains("Permission denied"))
        #expect(denied.hint.contains("permissions"))
        #expect(StoreError.writerFinished(path: "p").category == .internal)
    }

    @Test func aRootThatIsAFileIsRefused() throws {
        let folder = try TemporaryFolder()
        try "x".write(toFile: folder.path + "/file", atomically: false, encoding: .utf8)
        #expect(throws: StoreError.self) { try SecureFileSystem(root: folder.path + "/file") }
    }
}
