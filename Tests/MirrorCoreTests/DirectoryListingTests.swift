import Foundation
import MirrorCore
import MirrorTestSupport
import Testing

/// `DirectoryListing`: a folder's names with `readdir(3)`, as `FileManager` lists them.
@Suite struct DirectoryListingTests {
    @Test("every entry is listed, hidden ones and folders too, never . or .., as FileManager lists them")
    func listsWhatFileManagerLists() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        for name in ["a.html", ".partial-1", "é x", String(repeating: "n", count: 255)] {
            try Data("x".utf8).write(to: directory.url.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(atPath: directory.path + "/folder", withIntermediateDirectories: false)
        let names = try #require(DirectoryListing.names(atPath: directory.path))
        #expect(names.count == 5)
        #expect(Set(names) == ["a.html", ".partial-1", "é x", String(repeating: "n", count: 255), "folder"])
        #expect(Set(names) == Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)))
        #expect(DirectoryListing.names(atPath: directory.path + "/folder") == [])
    }

    @Test("a missing path, a file and an unreadable folder give nil")
    func refusesWhatIsNotAFolder() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        #expect(DirectoryListing.names(atPath: directory.path + "/missing") == nil)
        try Data("x".utf8).write(to: directory.url.appendingPathComponent("file"))
        #expect(DirectoryListing.names(atPath: directory.path + "/file") == nil)
        let locked = directory.path + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        chmod(locked, 0)
        defer { chmod(locked, 0o700) }
        // root reads any folder; everyone else is refused.
        #expect(DirectoryListing.names(atPath: locked) == (getuid() == 0 ? [] : nil))
    }
}
