import CMirrorShims
import CZlib

/// Writes gzip members (RFC 1952) with zlib's deflate: one member per WARC record, so that each
/// record can be read on its own from its offset (what CDXJ indexes point at).
///
/// One encoder is reused for every member (`deflateReset` between them spares the 256 KiB of
/// state that `deflateInit2` allocates). Not thread-safe: one writer owns it.
final class GzipEncoder {
    /// zlib's levels: 0 stores (a valid member that is not smaller), 1 is fastest, 9 smallest.
    static let storeLevel: Int32 = 0
    static let fastLevel: Int32 = 1
    static let defaultLevel: Int32 = 6

    private var stream = z_stream()
    private var level: Int32
    private let scratch: UnsafeMutablePointer<UInt8>
    private static let scratchSize = 128 * 1024

    /// - Throws: ``ArchiveError/compression(path:code:message:)`` when zlib cannot start.
    init(level: Int32 = GzipEncoder.defaultLevel) throws(ArchiveError) {
        self.level = level
        scratch = .allocate(capacity: Self.scratchSize)
        let code = CMirrorShims_deflateInit2(&stream, level, 15 + 16, 8)
        guard code == Z_OK else {
            scratch.deallocate()
            throw .compression(path: "", code: code, message: "deflateInit2 failed")
        }
    }

    deinit {
        deflateEnd(&stream)
        scratch.deallocate()
    }

    /// Starts a new member at `level`.
    func begin(level: Int32) {
        deflateReset(&stream)
        if level != self.level {
            deflateParams(&stream, level, Z_DEFAULT_STRATEGY)
            self.level = level
        }
    }

    /// Compresses `input` into `output` (appended). With `finish`, the member ends (its CRC-32 and
    /// length trailer are written) and the encoder is ready for ``begin(level:)``.
    func compress(_ input: UnsafeRawBufferPointer, finish: Bool, into output: inout [UInt8]) throws(ArchiveError) {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        while true {
            stream.next_out = scratch
            stream.avail_out = UInt32(Self.scratchSize)
            let code = deflate(&stream, flush)
            let produced = Self.scratchSize - Int(stream.avail_out)
            if produced > 0 { output.append(contentsOf: UnsafeBufferPointer(start: scratch, count: produced)) }
            if code == Z_STREAM_END { return }
            guard code == Z_OK || code == Z_BUF_ERROR else {
                throw .compression(path: "", code: code, message: stream.msg.map { String(cString: $0) } ?? String(cString: zError(code)))
            }
            // Without finishing, deflate is done once it took every input byte and had room left.
            if !finish, stream.avail_in == 0, stream.avail_out > 0 { return }
        }
    }

    /// Compresses bytes in memory; see ``compress(_:finish:into:)-(UnsafeRawBufferPointer,_,_)``.
    func compress(_ input: [UInt8], finish: Bool, into output: inout [UInt8]) throws(ArchiveError) {
        var failure: ArchiveError?
        input.withUnsafeBytes { buffer in
            do throws(ArchiveError) { try compress(buffer, finish: finish, into: &output) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// CRC-32 (the one gzip and zip use), from zlib.
public enum CRC32 {
    /// Continues `crc` over `bytes` (start with 0).
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        var value = UInt(crc)
        var offset = 0
        while offset < bytes.count {
            let count = min(bytes.count - offset, Int(UInt32.max))
            value = crc32(value, base.advanced(by: offset).assumingMemoryBound(to: UInt8.self), UInt32(count))
            offset += count
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The CRC-32 of bytes in memory.
    public static func of(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { update(0, $0) }
    }
}
