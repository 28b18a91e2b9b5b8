import CMirrorShims
import CZlib
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file of concatenated gzip members one member at a time: where each starts and ends,
/// and (as much as is asked for) what it holds. This is how a WARC file's records are found
/// again: by the recovery of an unfinished file, the indexer, replay and the tests.
///
/// A member that ends early, or whose CRC-32 or length does not match, is reported as damaged
/// at its start: everything before it is whole.
final class GzipMemberReader {
    /// One member.
    struct Member {
        /// Where the member starts in the file.
        var offset: Int64
        /// Its compressed length.
        var length: Int64
        /// The first bytes it decompresses to (up to the `keep` limit asked for).
        var prefix: [UInt8]
        /// How many bytes it decompresses to in all.
        var decompressedLength: Int64
    }

    /// How reading a member ended.
    enum Outcome {
        case member(Member)
        /// The file ends here, on a member boundary.
        case end
        /// The member starting at `offset` is incomplete or damaged (`reason`).
        case damaged(offset: Int64, reason: String)
    }

    let path: String
    private let descriptor: Int32
    private var stream = z_stream()
    private let input: UnsafeMutablePointer<UInt8>
    private let output: UnsafeMutablePointer<UInt8>
    private static let bufferSize = 256 * 1024
    /// Bytes of `input` not given to zlib yet: `input[inputStart..<inputEnd]`.
    private var inputStart = 0
    private var inputEnd = 0
    /// The file offset of `input[inputEnd]`.
    private var fileOffset: Int64 = 0

    /// Opens `path` (never following a symbolic link).
    /// - Throws: ``ArchiveError/io(operation:path:errno:)``.
    init(path: String, from offset: Int64 = 0) throws(ArchiveError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArchiveError.from(errno: errno, operation: "open", path: path) }
        input = .allocate(capacity: Self.bufferSize)
        output = .allocate(capacity: Self.bufferSize)
        if offset > 0, lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            let code = errno
            close(descriptor)
            input.deallocate()
            output.deallocate()
            throw ArchiveError.from(errno: code, operation: "lseek", path: path)
        }
        fileOffset = offset
        let code = CMirrorShims_inflateInit2(&stream, 15 + 16)
        guard code == Z_OK else {
            close(descriptor)
            input.deallocate()
            output.deallocate()
            throw .compression(path: path, code: code, message: "inflateInit2 failed")
        }
    }

    deinit {
        inflateEnd(&stream)
        close(descriptor)
        input.deallocate()
        output.deallocate()
    }

    /// The file offset of the next byte not yet consumed.
    private var position: Int64 { fileOffset - Int64(inputEnd - inputStart) }

    /// Reads the next member, keeping the first `keep` decompressed bytes (and every byte when
    /// `keep` is nil).
    /// - Throws: ``ArchiveError/io(operation:path:errno:)`` when the file cannot be read.
    func next(keep: Int? = 64 * 1024) throws(ArchiveError) -> Outcome {
        let start = position
        if inputStart == inputEnd, try fill() == 0 { return .end }
        inflateReset(&stream)
        var prefix: [UInt8] = []
        var total: Int64 = 0
        while true {
            if inputStart == inputEnd, try fill() == 0 {
                return .damaged(offset: start, reason: "the file ends inside a gzip member")
            }
            stream.next_in = input + inputStart
            stream.avail_in = UInt32(inputEnd - inputStart)
            stream.next_out = output
            stream.avail_out = UInt32(Self.bufferSize)
            let code = inflate(&stream, Z_NO_FLUSH)
            inputStart = inputEnd - Int(stream.avail_in)
            let produced = Self.bufferSize - Int(stream.avail_out)
            if produced > 0 {
                total += Int64(produced)
                let wanted = keep.map { max(0, $0 - prefix.count) } ?? produced
                if wanted > 0 { prefix.append(contentsOf: UnsafeBufferPointer(start: output, count: min(wanted, produced))) }
            }
            switch code {
            case Z_STREAM_END:
                return .member(Member(offset: start, length: position - start, prefix: prefix, decompressedLength: total))
            case Z_OK, Z_BUF_ERROR:
                continue
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                return .damaged(offset: start, reason: "not a whole gzip member (\(message))")
            }
        }
    }

    /// Reads more of the file into `input`; returns how many bytes arrived (0 at the end).
    private func fill() throws(ArchiveError) -> Int {
        if inputStart < inputEnd { return inputEnd - inputStart }
        while true {
            let count = read(descriptor, input, Self.bufferSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.from(errno: errno, operation: "read", path: path)
            }
            inputStart = 0
            inputEnd = count
            fileOffset += Int64(count)
            return count
        }
    }
}
