#if canImport(Glibc)
import Glibc
#endif
import MirrorHTTP

extension CapturedPayload {
    /// Hands the payload to `body` in chunks of at most 256 KiB, in order: the bytes in memory,
    /// or the spool file read from its start (exactly ``count`` bytes; a file that is shorter
    /// is an error, a longer one is read only that far).
    /// - Throws: ``ArchiveError/io(operation:path:errno:)`` when the spool file cannot be read,
    ///   ``ArchiveError/corrupt(path:offset:reason:)`` when it is shorter than recorded, and
    ///   whatever `body` throws.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws(ArchiveError) -> Void) throws(ArchiveError) {
        switch self {
        case .memory(let bytes):
            var failure: ArchiveError?
            bytes.withUnsafeBytes { buffer in
                do throws(ArchiveError) { try body(buffer) } catch { failure = error }
            }
            if let failure { throw failure }
        case .file(let path, let length):
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { throw ArchiveError.from(errno: errno, operation: "open", path: path) }
            defer { close(descriptor) }
            let chunk = 256 * 1024
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
            defer { buffer.deallocate() }
            var remaining = length
            while remaining > 0 {
                let wanted = Int(min(Int64(chunk), remaining))
                let count = read(descriptor, buffer.baseAddress, wanted)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ArchiveError.from(errno: errno, operation: "read", path: path)
                }
                if count == 0 {
                    throw ArchiveError.corrupt(path: path, offset: length - remaining, reason: "the spooled payload is shorter than captured")
                }
                try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                remaining -= Int64(count)
            }
        }
    }
}
