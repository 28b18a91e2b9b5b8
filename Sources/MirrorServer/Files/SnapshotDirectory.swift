#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a confined lookup found.
enum FileLookup {
    /// A regular file, open for reading.
    case file(OpenFile)
    /// A directory asked for without its trailing slash: redirect to the slash form.
    case directoryWithoutSlash
    /// Nothing servable: missing, a symbolic link, a special file, or not a directory on the way.
    case notFound
}

/// An open snapshot folder; the I/O half of path confinement.
///
/// Every lookup walks from this descriptor one segment at a time with
/// `openat(…, O_NOFOLLOW)`, so a symbolic link anywhere inside the snapshot is never
/// followed (it reads as not found) and no path string is ever handed to the kernel whole.
/// Special files are refused without blocking (`O_NONBLOCK` keeps a FIFO from hanging the
/// loop). Owns its descriptor and closes it in `deinit`.
final class SnapshotDirectory {
    /// The snapshot's descriptor.
    let descriptor: Int32
    /// The file served for a directory.
    static let indexFile = "index.html"

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { _ = close(descriptor) }

    /// Opens the snapshot root at `path` (following a symbolic link there once).
    static func open(path: String) -> SnapshotDirectory? {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return fd >= 0 ? SnapshotDirectory(descriptor: fd) : nil
    }

    /// Finds the file for a request path; directories give their `index.html`.
    /// - Parameter path: the confined request path.
    func lookup(_ path: RequestPath) -> FileLookup {
        var directory = descriptor
        var opened: [Int32] = []
        defer { for fd in opened { _ = close(fd) } }
        for segment in path.segments.dropLast() {
            let fd = openat(directory, segment, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { return .notFound }
            opened.append(fd)
            directory = fd
        }
        var relative = path.relativePath
        if let last = path.segments.last {
            let fd = openat(directory, last, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return .notFound }
            var info = stat()
            guard fstat(fd, &info) == 0 else { _ = close(fd); return .notFound }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                guard !path.trailingSlash else { _ = close(fd); return .notFound }
                return .file(OpenFile(descriptor: fd, metadata: FileMetadata(info), relativePath: relative))
            case S_IFDIR:
                opened.append(fd)
                guard path.trailingSlash else { return .directoryWithoutSlash }
                directory = fd
            default:
                _ = close(fd)
                return .notFound
            }
        }
        relative = relative.isEmpty ? Self.indexFile : relative + "/" + Self.indexFile
        return openRegular(Self.indexFile, in: directory, relativePath: relative)
    }

    /// Opens `name` in `directory` if it is a regular file (not a link).
    func openRegular(_ name: String, in directory: Int32, relativePath: String) -> FileLookup {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .notFound }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { _ = close(fd); return .notFound }
        return .file(OpenFile(descriptor: fd, metadata: FileMetadata(info), relativePath: relativePath))
    }

    /// Reads a small internal file such as `_mirror/manifest.tsv` (at most `limit` bytes).
    func readInternal(_ segments: [String], limit: Int = 512 * 1024 * 1024) -> [UInt8]? {
        guard case .file(let file) = lookup(RequestPath(segments: segments, trailingSlash: false)),
              file.metadata.size <= Int64(limit)
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(file.metadata.size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return pread(file.descriptor, base + done, buffer.count - done, off_t(done))
            }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }
}
