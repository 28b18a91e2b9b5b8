import CMirrorShims
import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The snapshots of one site, and the `current` link that publishes one of them.
///
/// Layout of a site folder (created 0700):
/// ```
/// <site>/
///   current -> snapshots/<id>          symbolic link, switched atomically by rename(2)
///   snapshots/<id>/                    a complete mirror: index.html, pages, _mirror/manifest.tsv
///   snapshots/.partial-<id>/           a run in progress (or a leftover of a killed run)
/// ```
/// A run builds a new snapshot under `.partial-<id>` and publishes it with two renames: the
/// folder to `<id>`, then a fresh symlink over `current`. A run that dies at any point leaves
/// `current` pointing at the previous complete snapshot.
public struct SnapshotStore: Sendable {
    public let siteDirectory: String
    public static let snapshotsFolder = "snapshots"
    public static let currentLink = "current"
    public static let partialPrefix = ".partial-"

    /// Opens (creating 0700 if needed) a site folder.
    /// - Throws: ``StoreError`` when the folder cannot be created or is not a folder.
    public init(siteDirectory: String) throws(StoreError) {
        self.siteDirectory = siteDirectory
        _ = try SecureFileSystem(root: siteDirectory, create: true).openDirectory(Self.snapshotsFolder, create: true)
    }

    var snapshotsPath: String { siteDirectory + "/" + Self.snapshotsFolder }

    /// A new snapshot id: UTC time to the second, then microseconds and a random suffix, so
    /// that ids sort in creation order even for runs within one second
    /// (`20261129T193202Z-123456-5ae0`).
    public static func newID(now: Date = Date()) -> String {
        let seconds = now.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let micros = Int((seconds - whole) * 1_000_000)
        let suffix = NumberText.zeroPadded(Int(UInt16.random(in: 0...UInt16.max)), width: 4, radix: 16)
        // The stamp is of the whole second, so that it and the microseconds never disagree.
        return UTCTime.compactStamp(Date(timeIntervalSince1970: whole)) + "-" + NumberText.zeroPadded(micros, width: 6) + "-" + suffix
    }

    /// Starts a snapshot: an empty private folder under `snapshots/.partial-<id>`.
    /// - Throws: ``StoreError`` when it cannot be created.
    public func begin(now: Date = Date()) throws(StoreError) -> StagingSnapshot {
        Self.markTopOfTrees(snapshotsPath)
        let id = Self.newID(now: now)
        let path = snapshotsPath + "/" + Self.partialPrefix + id
        let fileSystem = try SecureFileSystem(root: path, create: true, syncEachFile: false)
        return StagingSnapshot(id: id, fileSystem: fileSystem)
    }

    /// Publishes a finished snapshot: renames it into place, then points `current` at it.
    /// - Throws: ``StoreError/io(operation:path:errno:)`` when a rename or symlink fails; the
    ///   previous snapshot stays current then.
    public func publish(_ staging: StagingSnapshot) throws(StoreError) {
        let final = snapshotsPath + "/" + staging.id
        // Files in the snapshot were written without fsync; make them all durable at once
        // before the renames that publish them.
        if let code = Self.syncFileSystem(of: staging.fileSystem.root) {
            throw StoreError.from(errno: code, operation: "syncfs", path: staging.fileSystem.root)
        }
        guard rename(staging.fileSystem.root, final) == 0 else {
            throw StoreError.from(errno: errno, operation: "rename", path: final)
        }
        _ = fsyncDirectory(snapshotsPath)
        try point(currentAt: staging.id)
    }

    /// Marks `folder` (the site's `snapshots/`) with chattr's `T` flag, where the file system
    /// keeps it (ext2/3/4): each snapshot is a tree of its own, and ext4's Orlov allocator then
    /// places each new snapshot folder, and so the inodes of its files, in a block group of
    /// its own choosing instead of the one its parent is in.
    ///
    /// That matters where ext4 runs without a journal (this project's benchmark machines'
    /// root file system): for a few minutes after inodes are freed (a pruned snapshot, a
    /// deleted output), the allocator skips each of them again for every new inode of the same
    /// group, reading the inode table as it goes; CMake's manual (3,900 files) right after the
    /// previous copy was deleted took 1.3–1.9 s unmarked, 0.72–0.78 s marked (issue #27).
    /// Nothing happens where the flag is not kept (other file systems), and a failure is not
    /// an error: it is a placement hint.
    static func markTopOfTrees(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var flags: Int32 = 0
        let top = CMirrorShims_topdir_flag()
        guard CMirrorShims_get_inode_flags(descriptor, &flags) == 0, flags & top == 0 else { return }
        _ = CMirrorShims_set_inode_flags(descriptor, flags | top)
    }

    /// syncfs(2) on the file system holding `folder`: the errno of a failed sync, or nil (also when
    /// the folder cannot be opened: then there is nothing of it to flush).
    static func syncFileSystem(of folder: String) -> Int32? {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return CMirrorShims_syncfs(descriptor) == 0 ? nil : errno
    }

    /// Points `current` at snapshot `id` atomically (a new symlink renamed over the old one).
    /// - Throws: ``StoreError`` when the link cannot be made.
    public func point(currentAt id: String) throws(StoreError) {
        let temporary = siteDirectory + "/.current-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard symlink(Self.snapshotsFolder + "/" + id, temporary) == 0 else {
            throw StoreError.from(errno: errno, operation: "symlink", path: temporary)
        }
        guard rename(temporary, siteDirectory + "/" + Self.currentLink) == 0 else {
            let code = errno
            unlink(temporary)
            throw StoreError.from(errno: code, operation: "rename", path: siteDirectory + "/" + Self.currentLink)
        }
        _ = fsyncDirectory(siteDirectory)
    }

    /// The id `current` points at, if any.
    ///
    /// Read with `readlink(2)`: Foundation's `destinationOfSymbolicLink` cost each run's start
    /// about 0.3 ms of conformance lookups for its first call (issue #27).
    public var currentID: String? { Self.currentID(siteDirectory: siteDirectory) }

    /// The id the `current` link of the site folder `siteDirectory` points at, if any, without
    /// opening the store (which creates its folders).
    public static func currentID(siteDirectory: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(siteDirectory + "/" + currentLink, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.split(separator: "/").last.map(String.init)
    }

    /// The absolute path of the current snapshot, if any.
    public var currentPath: String? { currentID.map { snapshotsPath + "/" + $0 } }

    /// Published snapshot ids, oldest first.
    public func snapshotIDs() -> [String] {
        let names = DirectoryListing.names(atPath: snapshotsPath) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Partial snapshots left by runs that did not finish.
    public func leftoverIDs() -> [String] {
        let names = DirectoryListing.names(atPath: snapshotsPath) ?? []
        return names.filter { $0.hasPrefix(Self.partialPrefix) }.sorted()
    }

    private func fsyncDirectory(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }
}

/// A snapshot being built: its id and a file system rooted at its private folder.
public struct StagingSnapshot: Sendable {
    public let id: String
    public let fileSystem: SecureFileSystem
}

extension StagingSnapshot {
    /// Removes the whole unpublished snapshot (a run that failed or was cancelled); the
    /// current snapshot is untouched. Errors are ignored: a leftover staging folder is removed
    /// by the next run's maintenance.
    public func discard() {
        try? FileManager.default.removeItem(atPath: fileSystem.root)
    }

    /// Starts writing the snapshot's files out in the background (syncfs(2) on a thread of its
    /// own) while the run goes on, so that the flush in ``SnapshotStore/publish(_:)`` has less
    /// left to wait for. Nothing is reported here: `publish` syncs again and reports failures.
    public func beginFlush() {
        let root = fileSystem.root
        Thread.detachNewThread { _ = SnapshotStore.syncFileSystem(of: root) }
    }
}
