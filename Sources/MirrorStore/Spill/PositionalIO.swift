#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole reads and writes at an offset of an open file (`pread`/`pwrite`, retried after
/// `EINTR` and after short counts), for the files the store appends to and reads back by
/// offset: a ``SpillFile``, the ``OriginalsPack``, a ``ManifestIndex``'s manifest.
enum PositionalIO {
    /// Writes all of `bytes` at `offset`.
    /// - Returns: 0, or the `errno` of the failed `pwrite`.
    static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int64) -> Int32 {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return 0
    }

    /// Reads up to `count` bytes at `offset`: fewer only where the file ends.
    /// - Returns: the bytes, or the `errno` of the failed `pread`.
    static func read(from descriptor: Int32, at offset: Int64, count: Int) -> Result<[UInt8], Failure> {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count, let start = buffer.baseAddress {
                let n = pread(descriptor, start + done, count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        return failure == 0 ? .success(bytes) : .failure(Failure(errno: failure))
    }

    /// A failed `pread`, with its `errno`.
    struct Failure: Error {
        let errno: Int32
    }
}
