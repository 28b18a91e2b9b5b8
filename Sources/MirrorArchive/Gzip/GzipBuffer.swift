import CLibDeflate
import CMirrorShims
import CZlib

/// Makes one gzip member from bytes in memory: deflated with libdeflate (level 1), or stored.
///
/// Measured on the benchmark site (README "Archive output"): libdeflate's level 1 deflates the
/// records in about 60 % of the time zlib's level 1 takes, at zlib's ratio. A payload that is
/// compressed already is stored instead (gzip framing around stored deflate blocks, RFC 1951
/// §3.2.4), which costs a copy and a CRC-32.
///
/// The member is valid until the next call. Not thread-safe: one writer owns it.
final class GzipBuffer {
    private let compressor: OpaquePointer
    private var output: UnsafeMutableRawBufferPointer

    /// - Throws: ``ArchiveError/compression(path:code:message:)`` when libdeflate cannot be
    ///   opened (the reason and the fix) or cannot start.
    init(level: Int32 = 1) throws(ArchiveError) {
        if let reason = DeflateLibrary.unavailableReason { throw .compression(path: "", code: -1, message: reason) }
        guard let compressor = CMirrorShims_libdeflate_alloc_compressor(level) else {
            throw .compression(path: "", code: -1, message: "libdeflate_alloc_compressor failed")
        }
        self.compressor = compressor
        output = .allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit {
        CMirrorShims_libdeflate_free_compressor(compressor)
        output.deallocate()
    }

    /// The gzip member of `input`, deflated or stored.
    func member(_ input: UnsafeRawBufferPointer, deflate: Bool) -> UnsafeRawBufferPointer {
        if deflate {
            let bound = CMirrorShims_libdeflate_gzip_compress_bound(compressor, input.count)
            reserve(bound)
            let written = CMirrorShims_libdeflate_gzip_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            if written > 0 { return UnsafeRawBufferPointer(rebasing: output[..<written]) }
        }
        return stored(input)
    }

    /// A member of stored blocks: the 10-byte gzip header, blocks of at most 65,535 bytes (the
    /// last one final), the CRC-32 and the length modulo 2^32.
    private func stored(_ input: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let blocks = max(1, (input.count + 65_534) / 65_535)
        reserve(10 + blocks * 5 + input.count + 8)
        var at = 0
        func put(_ byte: UInt8) {
            output[at] = byte
            at += 1
        }
        for byte: UInt8 in [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03] { put(byte) }
        var offset = 0
        repeat {
            let length = min(65_535, input.count - offset)
            put(offset + length == input.count ? 1 : 0)  // BFINAL, BTYPE 00
            put(UInt8(length & 0xFF))
            put(UInt8(length >> 8))
            put(UInt8(~length & 0xFF))
            put(UInt8((~length >> 8) & 0xFF))
            if length > 0 {
                UnsafeMutableRawBufferPointer(rebasing: output[at..<(at + length)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: input[offset..<(offset + length)]))
            }
            at += length
            offset += length
        } while offset < input.count
        let crc = UInt32(truncatingIfNeeded: CMirrorShims_libdeflate_crc32(0, input.baseAddress, input.count))
        let size = UInt32(truncatingIfNeeded: input.count)
        for shift in stride(from: 0, to: 32, by: 8) { put(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { put(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        return UnsafeRawBufferPointer(rebasing: output[..<at])
    }

    private func reserve(_ count: Int) {
        guard output.count < count else { return }
        output.deallocate()
        output = .allocate(byteCount: max(count, output.count * 2), alignment: 16)
    }
}
