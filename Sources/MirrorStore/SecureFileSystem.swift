#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File access confined to one root folder: private permissions, no symbolic links, atomic
/// replacement.
///
/// - Directories are created with mode 0700 and files with 0600, set explicitly with
///   `fchmod` so the process umask cannot widen (or empty) them.
/// - Paths are relative to the root and walked one component at a time with
///   `openat(…, O_DIRECTORY | O_NOFOLLOW)`: every parent must be a real directory inside the
///   root, and a symbolic link anywhere on the way is refused, never followed.
/// - Files are written through ``AtomicFileWriter``: a temporary file in the same directory,
///   `fsync`, then `renameat` over the final name, so readers see the old or the new file,
///   never half of one.
public struct SecureFileSystem: Sendable {
    /// The root folder, absolute and with symbolic links resolved.
    public let root: String
    /// Whether each committed file (and its folder) is fsync'ed. A snapshot being built turns
    /// this off and syncs the whole file system once before it is published
    /// (``SnapshotStore/publish(_:)``), which is as safe and far faster.
    public let syncEachFile: Bool

    /// Opens (and by default creates) the root folder.
    ///
    /// Missing folders on the way to `root` are created with mode 0700.
    /// - Parameters:
    ///   - root: the folder to confine all access to; relative paths are taken from the
    ///     current directory.
    ///   - create: create the root when it does not exist.
    ///   - syncEachFile: fsync every committed file and its folder (default on).
    /// - Throws: ``StoreError/io(operation:path:errno:)`` when the root cannot be created or
    ///   resolved, ``StoreError/diskFull(path:)``, ``StoreError/notADirectory(path:)``.
    public init(root: String, create: Bool = true, syncEachFile: Bool = true) throws(StoreError) {
        self.syncEachFile = syncEachFile
        if create { try SecureFileSystem.createRoot(root) }
        guard let resolved = realpath(root, nil) else {
            throw .io(operation: "realpath", path: root, errno: errno)
        }
        defer { free(resolved) }
        self.root = String(cString: resolved)
        var info = stat()
        guard stat(self.root, &info) == 0 else { throw .io(operation: "stat", path: self.root, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: self.root) }
    }

    /// Opens the directory at `relativePath`, optionally creating missing directories (0700).
    /// - Parameters:
    ///   - relativePath: `/`-separated path below the root; `""` is the root itself.
    ///   - create: create missing directories on the way.
    /// - Throws: ``StoreError/unsafePath(path:reason:)``, ``StoreError/symlinkRefused(path:)``,
    ///   ``StoreError/notADirectory(path:)``, ``StoreError/diskFull(path:)``,
    ///   ``StoreError/io(operation:path:errno:)`` (`ENOENT` when missing and not creating).
    public func openDirectory(_ relativePath: String, create: Bool) throws(StoreError) -> DirectoryHandle {
        let components = relativePath.isEmpty ? [] : try SecureFileSystem.components(of: relativePath)
        return try openDirectory(components: components[...], create: create)
    }

    /// Begins writing the file at `relativePath`; see ``AtomicFileWriter``.
    /// - Parameter relativePath: the final file's path below the root.
    /// - Throws: the errors of ``openDirectory(_:create:)``, and ``StoreError/io(operation:path:errno:)``
    ///   or ``StoreError/diskFull(path:)`` when the temporary file cannot be created.
    public func beginWrite(_ relativePath: String) throws(StoreError) -> AtomicFileWriter {
        let components = try SecureFileSystem.components(of: relativePath)
        let directory = try openDirectory(components: components.dropLast(), create: true)
        return try AtomicFileWriter(directory: directory, name: components[components.count - 1], sync: syncEachFile)
    }

    /// Writes a whole file atomically (temporary file, `fsync`, rename).
    /// - Parameters:
    ///   - bytes: the complete contents.
    ///   - relativePath: the file's path below the root.
    /// - Throws: the errors of ``beginWrite(_:)`` and ``AtomicFileWriter/commit()``.
    public func write(_ bytes: [UInt8], to relativePath: String) throws(StoreError) {
        let writer = try beginWrite(relativePath)
        try writer.append(bytes)
        try writer.commit()
    }

    /// Reads a whole regular file, refusing symbolic links.
    /// - Parameter relativePath: the file's path below the root.
    /// - Throws: ``StoreError/symlinkRefused(path:)``, ``StoreError/unsafePath(path:reason:)``,
    ///   ``StoreError/io(operation:path:errno:)`` (`ENOENT` when missing).
    public func read(_ relativePath: String) throws(StoreError) -> [UInt8] {
        let components = try SecureFileSystem.components(of: relativePath)
        let directory = try openDirectory(components: components.dropLast(), create: false)
        let name = components[components.count - 1]
        let descriptor = openat(directory.descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw .symlinkRefused(path: relativePath) }
            throw .io(operation: "openat", path: relativePath, errno: code)
        }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(operation: "read", path: relativePath, errno: errno)
            }
            bytes.append(contentsOf: buffer[..<count])
        }
        return bytes
    }

    /// Removes a file (not a directory). A missing file is not an error.
    /// - Parameter relativePath: the file's path below the root.
    /// - Throws: ``StoreError/io(operation:path:errno:)`` and the errors of path walking.
    public func removeFile(_ relativePath: String) throws(StoreError) {
        let components = try SecureFileSystem.components(of: relativePath)
        let directory: DirectoryHandle
        do {
            directory = try openDirectory(components: components.dropLast(), create: false)
        } catch let error where error.isNotFound {
            return
        }
        if unlinkat(directory.descriptor, components[components.count - 1], 0) != 0, errno != ENOENT {
            throw .io(operation: "unlinkat", path: relativePath, errno: errno)
        }
    }
}
