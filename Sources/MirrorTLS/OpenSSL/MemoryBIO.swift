import CMirrorShims
import COpenSSL

/// Owns a read-only memory `BIO` over a copy of some bytes, for OpenSSL's `d2i_*_bio` and
/// `PEM_read_bio_*` readers.
final class MemoryBIO {
    /// The `BIO *`.
    let pointer: OpaquePointer
    private let storage: UnsafeMutableRawBufferPointer

    /// Copies `bytes` and opens a memory BIO over the copy. Returns nil when OpenSSL cannot
    /// allocate the BIO.
    init?(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        storage.copyBytes(from: bytes)
        guard let bio = BIO_new_mem_buf(storage.baseAddress, Int32(bytes.count)) else {
            storage.deallocate()
            return nil
        }
        self.storage = storage
        self.pointer = bio
    }

    deinit {
        BIO_free(pointer)
        storage.deallocate()
    }
}

/// Collects what OpenSSL writes to a fresh memory BIO, for the `*_print_ex` family.
enum BIOText {
    /// Calls `body` with a writable memory BIO and returns what it wrote as UTF-8 text.
    static func capture(_ body: (OpaquePointer) -> Void) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        body(bio)
        var data: UnsafeMutablePointer<CChar>?
        let length = CMirrorShims_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        let raw = UnsafeRawBufferPointer(start: data, count: Int(length))
        return String(decoding: raw, as: UTF8.self)
    }
}
