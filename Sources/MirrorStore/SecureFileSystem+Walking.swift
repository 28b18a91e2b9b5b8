#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Path validation and the component-by-component directory walk.

extension SecureFileSystem {
    /// Mode of every directory the store creates.
    public static let directoryMode: mode_t = 0o700
    /// Mode of every file the store creates.
    public static let fileMode: mode_t = 0o600

    /// Splits a relative path, refusing anything that could leave the root.
    /// - Throws: ``StoreError/unsafePath(path:reason:)``.
    static func components(of relativePath: String) throws(StoreError) -> [String] {
        guard !relativePath.isEmpty else { throw .unsafePath(path: relativePath, reason: "empty path") }
        guard !relativePath.hasPrefix("/") else { throw .unsafePath(path: relativePath, reason: "absolute path") }
        guard !relativePath.utf8.contains(0) else { throw .unsafePath(path: relativePath, reason: "NUL byte") }
        // Split on the byte, as the kernel does: `String.split` works on Characters, and a "/"
        // followed by a combining mark is one Character, so "../\u{301}x" would stay one
        // "component" that passes the ".." check and then climbs out in `openat`.
        let parts = relativePath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        for part in parts {
            if part.isEmpty { throw .unsafePath(path: relativePath, reason: "empty component") }
            if part == "." || part == ".." {
                throw .unsafePath(path: relativePath, reason: "'\(part)' component")
            }
        }
        return parts
    }

    /// Walks `components` from the root, each with `O_NOFOLLOW`, creating what is missing.
    func openDirectory(components: ArraySlice<String>, create: Bool) throws(StoreError) -> DirectoryHandle {
        let rootDescriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else { throw .io(operation: "open", path: root, errno: errno) }
        var current = DirectoryHandle(descriptor: rootDescriptor, relativePath: "")
        for name in components {
            let path = current.path(of: name)
            var created = false
            if create {
                if mkdirat(current.descriptor, name, SecureFileSystem.directoryMode) == 0 {
                    created = true
                } else if errno != EEXIST {
                    throw StoreError.from(errno: errno, operation: "mkdirat", path: path)
                }
            }
            let descriptor = openat(current.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                throw SecureFileSystem.classify(openError: code, parent: current, name: name, path: path)
            }
            let next = DirectoryHandle(descriptor: descriptor, relativePath: path)
            if created, fchmod(descriptor, SecureFileSystem.directoryMode) != 0 {
                throw .io(operation: "fchmod", path: path, errno: errno)
            }
            current = next
        }
        return current
    }

    /// Turns a failed directory `openat` into the most telling error.
    static func classify(openError code: Int32, parent: DirectoryHandle, name: String, path: String) -> StoreError {
        var info = stat()
        if code == ELOOP || code == ENOTDIR,
           fstatat(parent.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK { return .symlinkRefused(path: path) }
            return .notADirectory(path: path)
        }
        return .io(operation: "openat", path: path, errno: code)
    }

    /// Creates the root and its missing parents with mode 0700.
    static func createRoot(_ root: String) throws(StoreError) {
        var prefix = root.hasPrefix("/") ? "/" : ""
        for part in root.split(separator: "/") {
            let piece = String(part)
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? piece : "/" + piece
            if mkdir(prefix, directoryMode) == 0 {
                if chmod(prefix, directoryMode) != 0 { throw .io(operation: "chmod", path: prefix, errno: errno) }
            } else if errno != EEXIST {
                throw StoreError.from(errno: errno, operation: "mkdir", path: prefix)
            }
        }
    }
}

extension StoreError {
    /// `.diskFull` for `ENOSPC`/`EDQUOT`, otherwise `.io`.
    public static func from(errno code: Int32, operation: String, path: String) -> StoreError {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        return .io(operation: operation, path: path, errno: code)
    }

    /// Whether this is a "no such file or directory" failure.
    public var isNotFound: Bool {
        if case .io(_, _, let code) = self { return code == ENOENT }
        return false
    }
}
