#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MirrorCore

/// A file a response body streams to: a snapshot's download (under `_mirror/tmp/`, then moved
/// to its place with ``SecureFileSystem/moveIn(_:as:)`` or discarded), or `fetch -o`'s output.
/// Made by ``BodyFiles``; the transfer only hands it bytes.
final class DownloadFile: BodyFile {
    private var descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { if descriptor >= 0 { close(descriptor) } }

    func append(_ chunk: UnsafeRawBufferPointer) -> Int32 {
        guard descriptor >= 0 else { return EBADF }
        var offset = 0
        while offset < chunk.count {
            let n = write(descriptor, chunk.baseAddress! + offset, chunk.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }

    func finish(sync: Bool) -> Int32 {
        guard descriptor >= 0 else { return 0 }
        defer { descriptor = -1 }
        if sync, fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            return code
        }
        return close(descriptor) == 0 ? 0 : errno
    }

}

/// The store's maker of body files (created 0600, truncated, never through a symbolic link):
/// what ``MirrorHTTP``'s transfers stream large bodies to.
public struct BodyFiles: BodyFileMaker {
    public init() {}

    public func create(_ path: String) -> Result<any BodyFile, BodyFileError> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return .failure(BodyFileError(errno: errno)) }
        return .success(DownloadFile(descriptor: descriptor))
    }
}

extension SecureFileSystem {
    /// What a transfer streams this snapshot's large bodies to.
    public var downloads: any BodyFileMaker { BodyFiles() }
}
