import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The original bytes of a snapshot's documents, in one file.
///
/// A refresh rewrites an unchanged (`304`) document again when a file it links to moved, so a
/// snapshot keeps each HTML and CSS document as it was received, by SHA-256. One file per
/// document cost an inode, an open and a close each (a third of the files a mirror creates);
/// here they are appended to `_mirror/originals.pack`, and `_mirror/originals.idx` lists where
/// each one sits. Both are written while the snapshot is staged and never change once it is
/// published, so a reader needs no lock.
///
/// Index format: a header line `mtls-mirror-originals<TAB>1`, then one line per original:
/// `<sha256 hex><TAB><offset><TAB><length>`. An index that does not parse, or that points past
/// the end of the pack, makes the whole pack unusable (``open(in:)`` returns nil): the next
/// refresh then fetches those documents again instead of trusting it.
public final class OriginalsPack: @unchecked Sendable {
    public static let packPath = "_mirror/originals.pack"
    public static let indexPath = "_mirror/originals.idx"
    static let header = "mtls-mirror-originals\t1"

    private let descriptor: Int32
    private let lock = NSLock()
    private var end: Int64
    private var entries: DigestTable
    /// Appended bytes not written yet: the pack is written in large chunks (whole blocks, a
    /// few system calls), not once per document.
    private var pending: [UInt8] = []
    static let chunkSize = 256 * 1024

    private init(descriptor: Int32, end: Int64, entries: DigestTable) {
        self.descriptor = descriptor
        self.end = end
        self.entries = entries
    }

    deinit { close(descriptor) }

    /// Creates an empty pack in a snapshot being staged (0600, no symbolic link followed).
    /// - Throws: ``StoreError`` when the file cannot be created.
    public static func create(in fileSystem: SecureFileSystem) throws(StoreError) -> OriginalsPack {
        try fileSystem.createDirectory("_mirror")
        let path = fileSystem.absolutePath(packPath)
        let descriptor = openFile(path, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: packPath) }
        return OriginalsPack(descriptor: descriptor, end: 0, entries: DigestTable())
    }

    /// Opens the pack of a published snapshot for reading, or nil when it has none, or when its
    /// index is damaged.
    public static func open(in fileSystem: SecureFileSystem) -> OriginalsPack? {
        guard let index = try? fileSystem.read(indexPath) else { return nil }
        let path = fileSystem.absolutePath(packPath)
        let descriptor = openFile(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let entries = parseIndex(index, packSize: Int64(info.st_size)) else {
            close(descriptor)
            return nil
        }
        return OriginalsPack(descriptor: descriptor, end: Int64(info.st_size), entries: entries)
    }

    /// The entries of an index, or nil when any line is malformed or points outside the pack.
    static func parseIndex(_ bytes: [UInt8], packSize: Int64) -> DigestTable? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == header else { return nil }
        var entries = DigestTable()
        for line in lines.dropFirst() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].count == 64,
                  fields[0].allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
                  let offset = Int64(String(decoding: fields[1], as: UTF8.self)),
                  let length = Int(String(decoding: fields[2], as: UTF8.self)),
                  offset >= 0, length >= 0, offset + Int64(length) <= packSize
            else { return nil }
            guard let key = DigestKey(hex: String(decoding: fields[0], as: UTF8.self)) else { return nil }
            entries.insert(key, offset: offset, length: length)
        }
        return entries
    }

    /// How many originals the pack holds.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    public func contains(_ sha256: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return DigestKey(hex: sha256).map { entries.find($0) != nil } ?? false
    }

    /// Appends an original unless the pack holds these bytes already (the same SHA-256).
    /// - Throws: ``StoreError/diskFull(path:)`` when the disk is full, other ``StoreError``s.
    public func append(_ bytes: [UInt8], sha256: String) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        guard let key = DigestKey(hex: sha256) else {
            throw StoreError.unsafePath(path: Self.packPath, reason: "an original's SHA-256 is not 64 hex digits")
        }
        guard entries.find(key) == nil else { return }
        try writeLocked(bytes, key: key)
    }

    /// Copies the original with this hash from `other` (a published snapshot's pack). Returns
    /// false when `other` does not hold it.
    public func copy(_ sha256: String, from other: OriginalsPack) throws(StoreError) -> Bool {
        if contains(sha256) { return true }
        guard let bytes = try other.read(sha256) else { return false }
        try append(bytes, sha256: sha256)
        return true
    }

    /// The original with this hash, or nil when the pack does not hold it.
    public func read(_ sha256: String) throws(StoreError) -> [UInt8]? {
        lock.lock()
        let entry = DigestKey(hex: sha256).flatMap { entries.find($0) }
        if let entry, entry.offset + Int64(entry.length) > end - Int64(pending.count) {
            do { try flushLocked() } catch { lock.unlock(); throw error }
        }
        lock.unlock()
        guard let entry else { return nil }
        switch PositionalIO.read(from: descriptor, at: entry.offset, count: entry.length) {
        case .success(let bytes) where bytes.count == entry.length:
            return bytes
        case .success:
            throw StoreError.io(operation: "read", path: Self.packPath, errno: EIO)  // truncated
        case .failure(let error):
            throw StoreError.from(errno: error.errno, operation: "read", path: Self.packPath)
        }
    }

    /// Writes the index next to the pack (staging snapshot only; synced with the snapshot), in
    /// the pack's order, a chunk at a time (it is 5 MB for 60,000 documents).
    public func writeIndex(to fileSystem: SecureFileSystem) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        try flushLocked()
        let writer = try fileSystem.beginWrite(Self.indexPath)
        var text: [UInt8] = Array((Self.header + "\n").utf8)
        text.reserveCapacity(Self.chunkSize + 256)
        // Entries are in the order they were appended, which is the pack's.
        for position in 0..<entries.count {
            text += entries.keys[position].hex.utf8
            text.append(0x09)
            text += String(entries.offsets[position]).utf8
            text.append(0x09)
            text += String(entries.lengths[position]).utf8
            text.append(0x0A)
            if text.count >= Self.chunkSize {
                try writer.append(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        try writer.append(text)
        try writer.commit()
    }

    /// Called with `lock` held.
    private func writeLocked(_ bytes: [UInt8], key: DigestKey) throws(StoreError) {
        entries.insert(key, offset: end, length: bytes.count)
        end += Int64(bytes.count)
        if pending.isEmpty { pending.reserveCapacity(Self.chunkSize + 64 * 1024) }
        pending += bytes
        if pending.count >= Self.chunkSize { try flushLocked() }
    }

    /// Writes the pending bytes at their place in the file. Called with `lock` held.
    private func flushLocked() throws(StoreError) {
        guard !pending.isEmpty else { return }
        let code = PositionalIO.write(pending, to: descriptor, at: end - Int64(pending.count))
        if code != 0 { throw StoreError.from(errno: code, operation: "write", path: Self.packPath) }
        pending.removeAll(keepingCapacity: true)
    }
}

/// `open(2)`, callable where ``OriginalsPack/open(in:)`` hides the name.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}
