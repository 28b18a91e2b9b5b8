#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open directory file descriptor, closed when the handle goes away.
///
/// All store operations work relative to such descriptors (`openat`, `mkdirat`, `renameat`)
/// so that a path checked once cannot be swapped for a symbolic link afterwards.
public final class DirectoryHandle {
    /// The descriptor; valid for the handle's lifetime.
    let descriptor: Int32
    /// The directory's path relative to the store root (`""` for the root), for messages.
    public let relativePath: String

    init(descriptor: Int32, relativePath: String) {
        self.descriptor = descriptor
        self.relativePath = relativePath
    }

    deinit { _ = close(descriptor) }

    /// `relativePath` joined with `name`, for error messages.
    func path(of name: String) -> String {
        relativePath.isEmpty ? name : relativePath + "/" + name
    }
}
