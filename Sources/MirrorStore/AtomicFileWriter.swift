#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one file through a temporary file in the same directory, then renames it into place.
///
/// Made by ``SecureFileSystem/beginWrite(_:)``. Append chunks as they arrive from the network,
/// then ``commit()`` (fsync, rename over the final name, fsync the directory) or ``abort()``
/// (remove the temporary file). A writer dropped without either aborts. The temporary file is
/// created with `O_EXCL | O_NOFOLLOW` and mode 0600, and is named `.^partial-<16 hex>`, a name
/// `PathMapper` never produces. Use one writer from one thread at a time.
public final class AtomicFileWriter {
    private let directory: DirectoryHandle
    private let name: String
    private let temporaryName: String
    private var descriptor: Int32
    /// Bytes appended so far.
    public private(set) var bytesWritten: Int64 = 0

    /// The prefix of every temporary file name.
    public static let temporaryPrefix = ".^partial-"

    /// The final file's path relative to the store root.
    public var relativePath: String { directory.path(of: name) }

    /// fsync the file and its folder on commit.
    private let sync: Bool

    init(directory: DirectoryHandle, name: String, sync: Bool = true) throws(StoreError) {
        self.sync = sync
        self.directory = directory
        self.name = name
        var attempt = 0
        while true {
            let candidate = AtomicFileWriter.temporaryPrefix
                + String(UInt64.random(in: .min ... .max), radix: 16)
            let fd = openat(directory.descriptor, candidate,
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, SecureFileSystem.fileMode)
            if fd >= 0 {
                temporaryName = candidate
                descriptor = fd
                break
            }
            let code = errno
            attempt += 1
            if code != EEXIST || attempt >= 8 {
                throw StoreError.from(errno: code, operation: "openat", path: directory.path(of: candidate))
            }
        }
        if fchmod(descriptor, SecureFileSystem.fileMode) != 0 {
            let code = errno
            abort()
            throw .io(operation: "fchmod", path: directory.path(of: temporaryName), errno: code)
        }
    }

    deinit { abort() }

    /// Appends bytes to the temporary file.
    /// - Parameter buffer: the chunk to write.
    /// - Throws: ``StoreError/diskFull(path:)``, ``StoreError/io(operation:path:errno:)``,
    ///   ``StoreError/writerFinished(path:)`` after commit or abort. On failure the writer
    ///   aborts and removes its temporary file.
    public func append(_ buffer: UnsafeRawBufferPointer) throws(StoreError) {
        guard descriptor >= 0 else { throw .writerFinished(path: relativePath) }
        guard var pointer = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(descriptor, pointer, remaining)
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                abort()
                throw StoreError.from(errno: code, operation: "write", path: relativePath)
            }
            pointer += written
            remaining -= written
            bytesWritten += Int64(written)
        }
    }

    /// Appends an array of bytes; see ``append(_:)-(UnsafeRawBufferPointer)``.
    /// - Throws: as ``append(_:)-(UnsafeRawBufferPointer)``.
    public func append(_ bytes: [UInt8]) throws(StoreError) {
        var failure: StoreError?
        bytes.withUnsafeBytes { buffer in
            do throws(StoreError) { try append(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Makes the file durable and moves it over the final name.
    /// - Throws: ``StoreError/diskFull(path:)``, ``StoreError/io(operation:path:errno:)``
    ///   (`fsync`, `renameat`; `EISDIR` when a directory holds the final name),
    ///   ``StoreError/writerFinished(path:)``. On failure the temporary file is removed.
    public func commit() throws(StoreError) {
        guard descriptor >= 0 else { throw .writerFinished(path: relativePath) }
        if sync, fsync(descriptor) != 0 {
            let code = errno
            abort()
            throw StoreError.from(errno: code, operation: "fsync", path: relativePath)
        }
        let closed = close(descriptor)
        let closeError = errno
        descriptor = -1
        if closed != 0 {
            _ = unlinkat(directory.descriptor, temporaryName, 0)
            throw StoreError.from(errno: closeError, operation: "close", path: relativePath)
        }
        if renameat(directory.descriptor, temporaryName, directory.descriptor, name) != 0 {
            let code = errno
            _ = unlinkat(directory.descriptor, temporaryName, 0)
            throw StoreError.from(errno: code, operation: "renameat", path: relativePath)
        }
        // Persist the rename itself; a failure here leaves a correct file, so report it.
        if sync, fsync(directory.descriptor) != 0, errno != EINVAL {
            throw .io(operation: "fsync", path: directory.relativePath.isEmpty ? "." : directory.relativePath,
                      errno: errno)
        }
    }

    /// Drops the temporary file. Does nothing after commit or a previous abort.
    public func abort() {
        guard descriptor >= 0 else { return }
        _ = close(descriptor)
        descriptor = -1
        _ = unlinkat(directory.descriptor, temporaryName, 0)
    }
}
