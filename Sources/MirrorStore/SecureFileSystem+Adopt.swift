#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SecureFileSystem {
    /// Moves a finished file (a download streamed to a temporary path on the same file system)
    /// to its place below the root, creating parent folders 0700 on the way.
    ///
    /// The rename is atomic: readers see the old file or the new one, never a part.
    ///
    /// - Parameters:
    ///   - temporaryPath: absolute path of the finished file.
    ///   - relativePath: its destination below the root.
    /// - Throws: ``StoreError/unsafePath(path:reason:)`` for a bad destination, the errors of
    ///   folder creation, and ``StoreError/io(operation:path:errno:)`` when the rename fails.
    public func adopt(temporaryPath: String, as relativePath: String) throws(StoreError) {
        let components = try SecureFileSystem.components(of: relativePath)
        let directory = try openDirectory(components: components.dropLast(), create: true)
        let name = components[components.count - 1]
        if renameat(AT_FDCWD, temporaryPath, directory.descriptor, name) != 0 {
            throw StoreError.from(errno: errno, operation: "rename", path: relativePath)
        }
        _ = fchmodat(directory.descriptor, name, SecureFileSystem.fileMode, 0)
    }

    /// The absolute path of `relativePath` below the root (for handing to libcurl).
    public func absolutePath(_ relativePath: String) -> String {
        relativePath.isEmpty ? root : root + "/" + relativePath
    }

    /// Creates (0700) the folder `relativePath` and its parents.
    public func createDirectory(_ relativePath: String) throws(StoreError) {
        _ = try openDirectory(relativePath, create: true)
    }
}
