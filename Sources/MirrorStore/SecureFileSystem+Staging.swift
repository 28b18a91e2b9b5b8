import CMirrorShims
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations a crawl makes on a snapshot while it is staged: new files, hard links
/// to the previous snapshot's files and to the originals, finished downloads moved in, and an
/// atomic replacement for a snapshot that is being served.
///
/// A staging snapshot is private (0700, made by this run, every folder created through
/// ``SecureFileSystem``), so these use plain paths below the root, as fast as the system calls
/// themselves: nobody else can put a symbolic link in the way, and if the run dies the
/// unpublished snapshot is discarded. Files are created 0600 and never through a symbolic link
/// (`O_NOFOLLOW`). Callers make a file's folder first (``createDirectory(_:)``).
extension SecureFileSystem {
    /// The name under which a document streamed to a file keeps its original bytes, by SHA-256
    /// (the other originals are in the ``OriginalsPack``).
    public static func rawPath(sha256: String) -> String { "_mirror/raw/\(sha256)" }

    /// Creates `relativePath`, which must not exist, with `bytes` (mode 0600). On failure the
    /// partial file is removed.
    /// - Parameter replacing: a file already there is replaced (unlinked first).
    /// - Throws: ``StoreError/io(operation:path:errno:)`` (`EEXIST` when the file exists and
    ///   `replacing` is false) or ``StoreError/diskFull(path:)``.
    public func createFile(_ bytes: [UInt8], at relativePath: String, replacing: Bool = false) throws(StoreError) {
        try Self.createFile(bytes, atPath: absolutePath(relativePath), shownAs: relativePath, replacing: replacing)
    }

    /// ``createFile(_:at:replacing:)`` with the bytes given as pieces, written in order with
    /// `pwritev(2)` (a rewritten document: runs of its original and the new links, never
    /// assembled in memory).
    /// - Parameter pieces: the file's bytes in order; read during the call only.
    public func createFile(pieces: [UnsafeRawBufferPointer], at relativePath: String, replacing: Bool = false) throws(StoreError) {
        try Self.createFile(atPath: absolutePath(relativePath), shownAs: relativePath, replacing: replacing) {
            PositionalIO.write(pieces: pieces, to: $0, at: 0)
        }
    }

    /// Writes `bytes` under a temporary name beside `relativePath`, then renames it over the
    /// file, so that a reader (a `serve` of this snapshot) never finds the name missing.
    public func replaceFile(_ bytes: [UInt8], at relativePath: String) throws(StoreError) {
        try replaceFile(at: relativePath) { PositionalIO.write(bytes, to: $0, at: 0) }
    }

    /// ``replaceFile(_:at:)`` with the bytes given as pieces (``createFile(pieces:at:replacing:)``).
    public func replaceFile(pieces: [UnsafeRawBufferPointer], at relativePath: String) throws(StoreError) {
        try replaceFile(at: relativePath) { PositionalIO.write(pieces: pieces, to: $0, at: 0) }
    }

    private func replaceFile(at relativePath: String, writing: (Int32) -> Int32) throws(StoreError) {
        let target = absolutePath(relativePath)
        let temporary = target + ".rewrite:" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try Self.createFile(atPath: temporary, shownAs: relativePath, replacing: false, writing: writing)
        if rename(temporary, target) != 0 {
            let code = errno
            unlink(temporary)
            throw StoreError.from(errno: code, operation: "rename", path: relativePath)
        }
    }

    /// Gives the file at `relativePath` a second name, `newName` (both below this root).
    /// - Returns: false when `relativePath` does not exist; true when linked, or when a file of
    ///   that name is there already (the same bytes, by the callers' naming).
    public func link(_ relativePath: String, as newName: String) throws(StoreError) -> Bool {
        try Self.link(absolutePath(relativePath), absolutePath(newName), shownAs: newName)
    }

    /// Links a file of another snapshot (the previous one: an unchanged file costs no copy)
    /// into this one under the same relative path.
    /// - Returns: false when the other snapshot has no such file.
    public func link(_ relativePath: String, from other: SecureFileSystem) throws(StoreError) -> Bool {
        try Self.link(other.absolutePath(relativePath), absolutePath(relativePath), shownAs: relativePath)
    }

    /// Links a file of another snapshot into this one under another name.
    /// - Returns: false when the other snapshot has no such file.
    public func link(_ relativePath: String, from other: SecureFileSystem, as newName: String) throws(StoreError) -> Bool {
        try Self.link(other.absolutePath(relativePath), absolutePath(newName), shownAs: newName)
    }

    /// Moves a finished download (a temporary file below this root, on the same file system)
    /// to `relativePath`, replacing a file there.
    public func moveIn(_ temporaryPath: String, as relativePath: String) throws(StoreError) {
        if rename(temporaryPath, absolutePath(relativePath)) != 0 {
            throw StoreError.from(errno: errno, operation: "rename", path: relativePath)
        }
    }

    /// Removes the file at `relativePath`; a missing file is not an error.
    public func unlinkFile(_ relativePath: String) throws(StoreError) {
        if unlink(absolutePath(relativePath)) != 0, errno != ENOENT {
            throw StoreError.from(errno: errno, operation: "unlink", path: relativePath)
        }
    }

    /// Removes the folder at `relativePath` if it is empty; returns whether it was removed (a
    /// folder with files in it stays).
    @discardableResult
    public func removeEmptyDirectory(_ relativePath: String) -> Bool {
        rmdir(absolutePath(relativePath)) == 0
    }

    /// Removes a temporary file (a download that will not be kept); errors are ignored, as the
    /// whole temporary folder goes with the staging snapshot.
    public static func discard(temporaryPath: String) {
        guard !temporaryPath.isEmpty else { return }
        unlink(temporaryPath)
    }

    /// Reads a whole regular file this run created (a finished download; symbolic links refused).
    public static func readFile(atPath path: String) throws(StoreError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw StoreError.from(errno: errno, operation: "fstat", path: path) }
        // Read straight into uninitialised memory (zeroing it first was a pass over every byte
        // of the largest documents before the copy, issue #27).
        switch PositionalIO.read(from: descriptor, at: 0, count: Int(info.st_size)) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw StoreError.from(errno: failure.errno, operation: "read", path: path)
        }
    }

    /// Creates `path` (which must not exist; no symbolic link followed) with `bytes`, mode 0600;
    /// the partial file is removed on failure. `name` is the path errors show.
    ///
    /// The file is written unnamed in its folder (`O_TMPFILE`) and then linked under its name,
    /// so that the folder's lock is held only for the link: ext4 allocates the inode outside it.
    /// Right after a large tree was deleted, ext4 skips the recently freed inodes one by one,
    /// and two threads creating files in one folder by name waited on each other's allocations
    /// (300 files of 40 KB: 162-229 ms by name, 87-114 ms unnamed, issue #27). Where unnamed
    /// files are not offered (another file system, an old kernel, no `/proc`), the file is
    /// created by name as before.
    public static func createFile(_ bytes: [UInt8], atPath path: String, shownAs name: String, replacing: Bool = false) throws(StoreError) {
        try createFile(atPath: path, shownAs: name, replacing: replacing) { PositionalIO.write(bytes, to: $0, at: 0) }
    }

    /// ``createFile(_:atPath:shownAs:replacing:)`` with the bytes written by `writing` (given
    /// the open file; it returns 0 or the `errno` of the write that failed).
    private static func createFile(atPath path: String, shownAs name: String, replacing: Bool, writing: (Int32) -> Int32) throws(StoreError) {
        if try createUnnamed(atPath: path, shownAs: name, replacing: replacing, writing: writing) { return }
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == EEXIST {
            if replacing, unlink(path) == 0 || errno == ENOENT {
                descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
        }
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: name) }
        let failed = writing(descriptor)
        if failed != 0 {
            close(descriptor)
            unlink(path)
            throw StoreError.from(errno: failed, operation: "write", path: name)
        }
        if close(descriptor) != 0 {
            let code = errno
            unlink(path)
            throw StoreError.from(errno: code, operation: "close", path: name)
        }
    }

    /// ``createFile(_:atPath:shownAs:replacing:)`` through an unnamed file; false when the
    /// folder cannot hold one (nothing was created: the caller creates the file by name).
    private static func createUnnamed(atPath path: String, shownAs name: String, replacing: Bool, writing: (Int32) -> Int32) throws(StoreError) -> Bool {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return false }
        let descriptor = CMirrorShims_open_tmpfile(String(path[..<slash]), 0o600)
        guard descriptor >= 0 else { return false }
        var open = true
        defer { if open { close(descriptor) } }
        let failed = writing(descriptor)
        if failed != 0 { throw StoreError.from(errno: failed, operation: "write", path: name) }
        var linked = linkUnnamed(descriptor, to: path)
        if !linked, errno == EEXIST, replacing, unlink(path) == 0 || errno == ENOENT {
            linked = linkUnnamed(descriptor, to: path)
        }
        if !linked {
            let code = errno
            switch code {
            case ENOENT where access("/proc/self/fd", F_OK) != 0: return false  // no /proc: by name
            case EEXIST: throw StoreError.from(errno: EEXIST, operation: "open", path: name)
            default: throw StoreError.from(errno: code, operation: "link", path: name)
            }
        }
        open = false
        if close(descriptor) != 0 {
            let code = errno
            unlink(path)
            throw StoreError.from(errno: code, operation: "close", path: name)
        }
        return true
    }

    /// Whether the kernel refused to link an open file by itself (`AT_EMPTY_PATH`): after the
    /// first refusal, unnamed files are linked through their `/proc/self/fd` name only.
    private static let linkByDescriptorRefused = Atomic<Bool>(false)

    /// Links the unnamed file `descriptor` under `path`; false with `errno` set on failure.
    ///
    /// By the descriptor itself where the kernel allows it (no path to look up in `/proc`: 4–10
    /// µs a file less, issue #27), else through `/proc/self/fd`. A refusal answers `ENOENT`,
    /// which a missing folder on the way to `path` answers too: the `/proc` link then tells.
    private static func linkUnnamed(_ descriptor: Int32, to path: String) -> Bool {
        let byDescriptor = !linkByDescriptorRefused.load(ordering: .relaxed)
        if byDescriptor {
            if CMirrorShims_link_descriptor(descriptor, path) == 0 { return true }
            guard errno == ENOENT || errno == EPERM else { return false }
        }
        guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else { return false }
        if byDescriptor { linkByDescriptorRefused.store(true, ordering: .relaxed) }
        return true
    }

    private static func link(_ source: String, _ destination: String, shownAs name: String) throws(StoreError) -> Bool {
        if Glibc.link(source, destination) != 0, errno != EEXIST {
            // Callers make the destination's folder first, so ENOENT names the source.
            if errno == ENOENT { return false }
            throw StoreError.from(errno: errno, operation: "link", path: name)
        }
        return true
    }
}
