import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes a zip file of stored (uncompressed) entries, as WACZ wants its WARC files: a reader can
/// seek into a WARC inside the package without inflating anything. ZIP64 records are added when a
/// size or an offset passes 4 GiB (or there are more than 65,535 entries), so a large archive
/// packs too (APPNOTE.TXT 6.3, §4.3 and §4.5.3).
///
/// Entries are written whole: ``addFile(name:path:)`` reads a file twice (its CRC-32 first, for
/// the local header, then its bytes), so nothing large is held in memory. Not thread-safe.
final class ZipWriter {
    private struct Entry {
        var name: [UInt8]
        var crc: UInt32
        var size: UInt64
        var offset: UInt64
    }

    let path: String
    private let descriptor: Int32
    private var offset: UInt64 = 0
    private var entries: [Entry] = []
    private let dosTime: UInt16
    private let dosDate: UInt16

    /// Creates (exclusively, 0600) the file at `path`.
    /// - Throws: ``ArchiveError``.
    init(path: String, date: Date = Date()) throws(ArchiveError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ArchiveError.from(errno: errno, operation: "open", path: path) }
        let fields = UTCTime.fields(of: date)
        dosTime = UInt16(fields.hour << 11 | fields.minute << 5 | fields.second / 2)
        dosDate = UInt16(max(0, fields.year - 1980) << 9 | fields.month << 5 | fields.day)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Adds bytes in memory as the entry `name`.
    func add(name: String, bytes: [UInt8]) throws(ArchiveError) {
        let crc = CRC32.of(bytes)
        try beginEntry(name: name, crc: crc, size: UInt64(bytes.count))
        try write(bytes)
    }

    /// Adds the file at `path` as the entry `name`.
    /// - Returns: the file's size and lower-case hex SHA-256 (taken in the same pass as its CRC-32).
    /// - Throws: ``ArchiveError`` when the file cannot be read or changes size meanwhile.
    @discardableResult
    func addFile(name: String, path source: String) throws(ArchiveError) -> (size: UInt64, sha256: String) {
        var crc: UInt32 = 0
        var size: UInt64 = 0
        let hasher = SHA256Stream()
        try Self.readChunks(source) { chunk in
            crc = CRC32.update(crc, chunk)
            hasher.update(chunk)
            size += UInt64(chunk.count)
        }
        try beginEntry(name: name, crc: crc, size: size)
        var copied: UInt64 = 0
        var failure: ArchiveError?
        try Self.readChunks(source) { chunk in
            guard failure == nil else { return }
            do throws(ArchiveError) { try write(chunk) } catch { failure = error }
            copied += UInt64(chunk.count)
        }
        if let failure { throw failure }
        guard copied == size else { throw .corrupt(path: source, offset: Int64(copied), reason: "the file changed while it was packed") }
        return (size, hasher.finalizeHex())
    }

    /// Writes the central directory and the end records, and closes the file (after fsync).
    func finish() throws(ArchiveError) {
        let directoryStart = offset
        for entry in entries {
            let zip64 = entry.size >= 0xFFFF_FFFF || entry.offset >= 0xFFFF_FFFF
            var extra: [UInt8] = []
            if zip64 {
                extra.appendLE(UInt16(0x0001))
                extra.appendLE(UInt16(24))
                extra.appendLE(entry.size)
                extra.appendLE(entry.size)
                extra.appendLE(entry.offset)
            }
            var header: [UInt8] = []
            header.appendLE(UInt32(0x0201_4B50))
            header.appendLE(UInt16(zip64 ? 45 : 20))  // made by (0 = MS-DOS attributes, version)
            header.appendLE(UInt16(zip64 ? 45 : 20))  // needed to extract
            header.appendLE(UInt16(0x0800))  // UTF-8 names
            header.appendLE(UInt16(0))  // stored
            header.appendLE(dosTime)
            header.appendLE(dosDate)
            header.appendLE(entry.crc)
            header.appendLE(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(entry.size))
            header.appendLE(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(entry.size))
            header.appendLE(UInt16(entry.name.count))
            header.appendLE(UInt16(extra.count))
            header.appendLE(UInt16(0))  // comment
            header.appendLE(UInt16(0))  // disk
            header.appendLE(UInt16(0))  // internal attributes
            header.appendLE(UInt32(0))  // external attributes
            header.appendLE(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(entry.offset))
            try write(header + entry.name + extra)
        }
        let directorySize = offset - directoryStart
        let needs64 = entries.count >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
            || entries.contains { $0.size >= 0xFFFF_FFFF || $0.offset >= 0xFFFF_FFFF }
        if needs64 {
            let record64 = offset
            var end64: [UInt8] = []
            end64.appendLE(UInt32(0x0606_4B50))
            end64.appendLE(UInt64(44))
            end64.appendLE(UInt16(45))
            end64.appendLE(UInt16(45))
            end64.appendLE(UInt32(0))
            end64.appendLE(UInt32(0))
            end64.appendLE(UInt64(entries.count))
            end64.appendLE(UInt64(entries.count))
            end64.appendLE(directorySize)
            end64.appendLE(directoryStart)
            end64.appendLE(UInt32(0x0706_4B50))  // locator
            end64.appendLE(UInt32(0))
            end64.appendLE(record64)
            end64.appendLE(UInt32(1))
            try write(end64)
        }
        var end: [UInt8] = []
        end.appendLE(UInt32(0x0605_4B50))
        end.appendLE(UInt16(0))
        end.appendLE(UInt16(0))
        end.appendLE(UInt16(min(entries.count, 0xFFFF)))
        end.appendLE(UInt16(min(entries.count, 0xFFFF)))
        end.appendLE(UInt32(min(directorySize, 0xFFFF_FFFF)))
        end.appendLE(UInt32(min(directoryStart, 0xFFFF_FFFF)))
        end.appendLE(UInt16(0))
        try write(end)
        guard fsync(descriptor) == 0 else { throw ArchiveError.from(errno: errno, operation: "fsync", path: path) }
    }

    private func beginEntry(name: String, crc: UInt32, size: UInt64) throws(ArchiveError) {
        let nameBytes = Array(name.utf8)
        let zip64 = size >= 0xFFFF_FFFF
        var extra: [UInt8] = []
        if zip64 {
            extra.appendLE(UInt16(0x0001))
            extra.appendLE(UInt16(16))
            extra.appendLE(size)
            extra.appendLE(size)
        }
        var header: [UInt8] = []
        header.appendLE(UInt32(0x0403_4B50))
        header.appendLE(UInt16(zip64 ? 45 : 20))
        header.appendLE(UInt16(0x0800))
        header.appendLE(UInt16(0))
        header.appendLE(dosTime)
        header.appendLE(dosDate)
        header.appendLE(crc)
        header.appendLE(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(size))
        header.appendLE(zip64 ? UInt32(0xFFFF_FFFF) : UInt32(size))
        header.appendLE(UInt16(nameBytes.count))
        header.appendLE(UInt16(extra.count))
        entries.append(Entry(name: nameBytes, crc: crc, size: size, offset: offset))
        try write(header + nameBytes + extra)
    }

    private func write(_ bytes: [UInt8]) throws(ArchiveError) {
        var failure: ArchiveError?
        bytes.withUnsafeBytes { buffer in
            do throws(ArchiveError) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private func write(_ buffer: UnsafeRawBufferPointer) throws(ArchiveError) {
        var done = 0
        while done < buffer.count {
            let count = Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.from(errno: errno, operation: "write", path: path)
            }
            done += count
        }
        offset += UInt64(buffer.count)
    }

    /// Hands a file's bytes to `body` in 1 MiB chunks.
    static func readChunks(_ path: String, _ body: (UnsafeRawBufferPointer) -> Void) throws(ArchiveError) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArchiveError.from(errno: errno, operation: "open", path: path) }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.from(errno: errno, operation: "read", path: path)
            }
            if count == 0 { return }
            body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends an integer in little-endian order.
    mutating func appendLE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
