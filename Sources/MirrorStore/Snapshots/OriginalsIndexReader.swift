#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the whole digests of a published ``OriginalsPack``'s index file, front to back, a
/// chunk at a time: the pack's table keeps only a fingerprint of each (``DigestTable``), and a
/// refresh that copies originals over from the previous pack needs their whole digests for
/// its own index. Memory holds one chunk, not the file (8 MB for 100,000 originals).
struct OriginalsIndexReader: ~Copyable {
    private let descriptor: Int32
    private let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var fileOffset: Int64 = 0
    /// The position (in the pack's order) of the next entry line; -1 before the header.
    private var next = -1

    /// Opens the index file at `path` (never through a symbolic link).
    /// - Parameter name: the path errors show.
    /// - Throws: ``StoreError`` when it cannot be opened.
    init(_ path: String, shownAs name: String) throws(StoreError) {
        descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: name) }
        self.name = name
    }

    deinit { close(descriptor) }

    /// The digest of the entry at `position`; positions must be asked for in increasing order.
    /// - Throws: ``StoreError/io(operation:path:errno:)`` (`EIO`) when the file ends first, or
    ///   a line's digest is not 64 hex digits: the file changed since the pack was opened.
    mutating func key(at position: Int) throws(StoreError) -> DigestKey {
        precondition(position >= next, "positions are read front to back")
        while true {
            guard let line = try nextLine() else { throw StoreError.io(operation: "read", path: name, errno: EIO) }
            defer { next += 1 }
            guard next == position else { continue }
            guard line.count > 64, line[line.startIndex + 64] == 0x09,
                  let key = DigestKey(hex: String(decoding: line.prefix(64), as: UTF8.self))
            else { throw StoreError.io(operation: "read", path: name, errno: EIO) }
            return key
        }
    }

    /// The next line without its newline, or nil at the end of the file.
    private mutating func nextLine() throws(StoreError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                return line
            }
            buffer.removeFirst(start)
            start = 0
            switch PositionalIO.read(from: descriptor, at: fileOffset, count: OriginalsPack.chunkSize) {
            case .success(let bytes):
                if bytes.isEmpty { return nil }
                fileOffset += Int64(bytes.count)
                buffer += bytes
            case .failure(let error):
                throw StoreError.from(errno: error.errno, operation: "read", path: name)
            }
        }
    }
}
