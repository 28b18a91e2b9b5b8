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

    /// Writes `pieces` one after another from `offset`, with `pwritev` (at most `IOV_MAX`
    /// pieces a call; a short write goes on from the byte where it stopped).
    /// - Returns: 0, or the `errno` of the failed `pwritev`.
    static func write(pieces: [UnsafeRawBufferPointer], to descriptor: Int32, at offset: Int64) -> Int32 {
        var vectors = pieces.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        var first = 0
        var position = off_t(offset)
        return vectors.withUnsafeMutableBufferPointer { vectors in
            while first < vectors.count {
                if vectors[first].iov_len == 0 { first += 1; continue }
                let batch = min(vectors.count - first, maximumVectors)
                let n = pwritev(descriptor, vectors.baseAddress! + first, Int32(batch), position)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { return EIO }
                position += off_t(n)
                var left = n
                while left > 0, first < vectors.count {
                    let length = vectors[first].iov_len
                    if left >= length {
                        left -= length
                        first += 1
                    } else {
                        vectors[first].iov_base += left
                        vectors[first].iov_len = length - left
                        left = 0
                    }
                }
            }
            return 0
        }
    }

    /// The most pieces one `pwritev` takes (Linux's `IOV_MAX`).
    static let maximumVectors = 1024

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
