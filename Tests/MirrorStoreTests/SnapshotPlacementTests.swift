import CMirrorShims
import Foundation
import Testing
@testable import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

/// `snapshots/` carries chattr's `T` flag where the file system keeps it, so that ext4 places
/// each snapshot's inodes in a block group of their own (see `SnapshotStore.markTopOfTrees`).
@Suite struct SnapshotPlacementTests {
    /// The inode flags of a folder, or nil where the file system keeps none.
    static func flags(_ path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var flags: Int32 = 0
        return CMirrorShims_get_inode_flags(descriptor, &flags) == 0 ? flags : nil
    }

    /// Whether folders at `parent` can carry the `T` flag: tried on a scratch folder.
    static func keepsTopFlag(under parent: String) -> Bool {
        let scratch = parent + "/scratch-\(getpid())"
        guard mkdir(scratch, 0o700) == 0 else { return false }
        defer { rmdir(scratch) }
        let descriptor = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var flags: Int32 = 0
        guard CMirrorShims_get_inode_flags(descriptor, &flags) == 0,
              CMirrorShims_set_inode_flags(descriptor, flags | CMirrorShims_topdir_flag()) == 0 else { return false }
        return Self.flags(scratch).map { $0 & CMirrorShims_topdir_flag() != 0 } ?? false
    }

    @Test func aRunMarksTheSnapshotsFolderAndNothingBelowIt() throws {
        var fixture = try SnapshotFixture()
        let top = CMirrorShims_topdir_flag()
        let supported = Self.keepsTopFlag(under: fixture.folder.path)
        #expect((Self.flags(fixture.snapshotsPath) ?? 0) & top == 0, "opening a site folder alone marks nothing")
        let id = try fixture.publish(hour: 1)
        let marked = (Self.flags(fixture.snapshotsPath) ?? 0) & top != 0
        #expect(marked == supported, "marked where the file system keeps the flag (here: \(supported))")
        #expect((Self.flags(fixture.snapshotsPath + "/" + id) ?? 0) & top == 0, "a snapshot's own folders are ordinary")
        // A second run leaves the mark as it is and still publishes.
        try fixture.publish(hour: 2)
        #expect(((Self.flags(fixture.snapshotsPath) ?? 0) & top != 0) == supported)
        #expect(try fixture.currentIndex() == "<p>2</p>")
    }

    @Test func aFileSystemWithoutTheFlagIsNoError() throws {
        // tmpfs keeps no `T` flag: setting it fails, and the run goes on.
        guard FileManager.default.fileExists(atPath: "/dev/shm") else { return }
        let site = "/dev/shm/mtls-mirror-placement-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: site) }
        let store = try SnapshotStore(siteDirectory: site)
        let staging = try store.begin()
        try staging.fileSystem.write(Array("<p>x</p>".utf8), to: "index.html")
        try store.publish(staging)
        #expect(try String(contentsOfFile: site + "/current/index.html", encoding: .utf8) == "<p>x</p>")
        #expect(!Self.keepsTopFlag(under: site), "tmpfs keeps no T flag, so this test checks the failure path")
    }
}
