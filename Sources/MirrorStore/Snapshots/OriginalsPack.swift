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
/// A refresh takes the previous snapshot's originals over without copying them
/// (``copy(_:from:)`` only marks them): when the new snapshot ends up with exactly the previous
/// one's originals, as after an unchanged refresh, ``writeIndex(to:)`` links the previous pack
/// and index into it (two links, no byte copied, no disk used); otherwise it copies what was
/// taken over into this pack then, in the previous pack's order, a run of neighbours at a time.
///
/// Index format: a header line `mtls-mirror-originals<TAB>1`, then one line per original:
/// `<sha256 hex><TAB><offset><TAB><length>`, each original once. A staged pack writes its index
/// as originals are added, so that memory keeps only a fingerprint of each digest and its
/// length (``DigestTable``). An index that does not parse, or that points past the end of the
/// pack, makes the whole pack unusable (``open(in:)`` returns nil): the next refresh then
/// fetches those documents again instead of trusting it.
public final class OriginalsPack: @unchecked Sendable {
    public static let packPath = "_mirror/originals.pack"
    public static let indexPath = "_mirror/originals.idx"
    static let header = "mtls-mirror-originals\t1"

    private let descriptor: Int32
    /// The snapshot the pack belongs to.
    private let fileSystem: SecureFileSystem
    private let lock = NSLock()
    private var end: Int64
    private var entries: DigestTable
    /// The published pack whose originals this one takes over (``copy(_:from:)``), and which of
    /// them, by position in its table (a bit each). Guarded by `lock`.
    private var source: OriginalsPack?
    private var adopted: [UInt64] = []
    private var adoptedCount = 0
    /// Appended bytes not written yet: the pack is written in large chunks (whole blocks, a
    /// few system calls), not once per document.
    private var pending: [UInt8] = []
    static let chunkSize = 256 * 1024
    /// A staged pack's index file, being written (nil for a published pack, and once
    /// ``writeIndex(to:)`` is done), and its lines not written yet. Guarded by `lock`.
    private var indexWriter: AtomicFileWriter?
    private var indexPending: [UInt8] = []

    private init(descriptor: Int32, fileSystem: SecureFileSystem, end: Int64, entries: DigestTable,
                 indexWriter: AtomicFileWriter? = nil) {
        self.descriptor = descriptor
        self.fileSystem = fileSystem
        self.end = end
        self.entries = entries
        self.indexWriter = indexWriter
        if indexWriter != nil { indexPending = Array((Self.header + "\n").utf8) }
    }

    deinit { close(descriptor) }

    /// Creates an empty pack in a snapshot being staged (0600, no symbolic link followed).
    /// - Throws: ``StoreError`` when the file cannot be created.
    public static func create(in fileSystem: SecureFileSystem) throws(StoreError) -> OriginalsPack {
        try fileSystem.createDirectory("_mirror")
        let path = fileSystem.absolutePath(packPath)
        let descriptor = openFile(path, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: packPath) }
        let writer: AtomicFileWriter
        do {
            writer = try fileSystem.beginWrite(indexPath)
        } catch {
            close(descriptor)
            throw error
        }
        return OriginalsPack(descriptor: descriptor, fileSystem: fileSystem, end: 0, entries: DigestTable(), indexWriter: writer)
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
        return OriginalsPack(descriptor: descriptor, fileSystem: fileSystem, end: Int64(info.st_size), entries: entries)
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
                  offset >= 0, length >= 0, length <= DigestTable.maximumLength, offset + Int64(length) <= packSize
            else { return nil }
            // Each original once: a table position is a line of the index (``OriginalsIndexReader``).
            guard let key = DigestKey(hex: String(decoding: fields[0], as: UTF8.self)),
                  entries.insert(key, offset: offset, length: length)
            else { return nil }
        }
        return entries
    }

    /// How many originals the pack holds (those taken over from the previous pack included).
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count + adoptedCount
    }

    public func contains(_ sha256: String) -> Bool {
        guard let key = DigestKey(hex: sha256) else { return false }
        lock.lock()
        defer { lock.unlock() }
        return entries.find(key) != nil || adoptedPosition(of: key) != nil
    }

    /// The position in `source` of an original taken over from it. Called with `lock` held.
    private func adoptedPosition(of key: DigestKey) -> Int? {
        guard adoptedCount > 0, let source, let position = source.position(of: key), isAdopted(position) else { return nil }
        return position
    }

    /// Whether the source's original at `position` is taken over. Called with `lock` held.
    private func isAdopted(_ position: Int) -> Bool {
        adopted[position >> 6] & (1 << UInt64(position & 63)) != 0
    }

    /// The position of an original in this (published) pack's table.
    private func position(of key: DigestKey) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return entries.position(of: key)
    }

    /// Appends an original unless the pack holds these bytes already (the same SHA-256).
    /// - Throws: ``StoreError/diskFull(path:)`` when the disk is full, other ``StoreError``s.
    public func append(_ bytes: [UInt8], sha256: String) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        guard let key = DigestKey(hex: sha256) else {
            throw StoreError.unsafePath(path: Self.packPath, reason: "an original's SHA-256 is not 64 hex digits")
        }
        guard entries.find(key) == nil, adoptedPosition(of: key) == nil else { return }
        try writeLocked(bytes, key: key)
    }

    /// Takes the original with this hash over from `other` (a published snapshot's pack, the
    /// same one on every call of a run): marked now, linked or copied by ``writeIndex(to:)``.
    /// An original of another pack is copied at once. Returns false when `other` does not
    /// hold it.
    public func copy(_ sha256: String, from other: OriginalsPack) throws(StoreError) -> Bool {
        guard let key = DigestKey(hex: sha256) else { return false }
        lock.lock()
        if entries.find(key) != nil {
            lock.unlock()
            return true
        }
        if source == nil, other !== self {
            source = other
            adopted = [UInt64](repeating: 0, count: (other.count + 63) / 64)
        }
        if source === other {
            defer { lock.unlock() }
            guard let position = other.position(of: key) else { return false }
            let bit: UInt64 = 1 << UInt64(position & 63)
            if adopted[position >> 6] & bit == 0 {
                adopted[position >> 6] |= bit
                adoptedCount += 1
            }
            return true
        }
        lock.unlock()
        guard let bytes = try other.read(sha256) else { return false }
        try append(bytes, sha256: sha256)
        return true
    }

    /// The original with this hash, or nil when the pack does not hold it.
    public func read(_ sha256: String) throws(StoreError) -> [UInt8]? {
        guard let key = DigestKey(hex: sha256) else { return nil }
        lock.lock()
        let entry = entries.find(key)
        if entry == nil, adoptedPosition(of: key) != nil, let source {
            lock.unlock()
            return try source.read(sha256)
        }
        if let entry, entry.offset + Int64(entry.length) > end - Int64(pending.count) {
            do { try flushLocked() } catch { lock.unlock(); throw error }
        }
        lock.unlock()
        guard let entry else { return nil }
        return try Self.readExactly(entry.length, at: entry.offset, from: descriptor)
    }

    /// `count` bytes of a pack file at `offset`; fewer (a truncated pack) is an error.
    private static func readExactly(_ count: Int, at offset: Int64, from descriptor: Int32) throws(StoreError) -> [UInt8] {
        switch PositionalIO.read(from: descriptor, at: offset, count: count) {
        case .success(let bytes) where bytes.count == count:
            return bytes
        case .success:
            throw StoreError.io(operation: "read", path: packPath, errno: EIO)
        case .failure(let error):
            throw StoreError.from(errno: error.errno, operation: "read", path: packPath)
        }
    }

    /// Finishes the index next to the pack (staging snapshot only; synced with the snapshot):
    /// its lines were written as originals were added, in the pack's order. Originals taken
    /// over from the previous pack are linked with it (all of them and nothing else) or copied.
    /// - Throws: ``StoreError``; `EBADF` for a published pack, or a second call.
    public func writeIndex(to fileSystem: SecureFileSystem) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        guard let writer = indexWriter else { throw StoreError.io(operation: "write", path: Self.indexPath, errno: EBADF) }
        if let source, adoptedCount > 0 {
            if entries.count == 0, adoptedCount == source.count, linkSourceLocked(source, into: fileSystem) {
                writer.abort()
                indexWriter = nil
                return
            }
            try copyAdoptedLocked(from: source)
        }
        try flushLocked()
        try writer.append(indexPending)
        indexPending = []
        try writer.commit()
        indexWriter = nil
    }

    /// Links `source`'s index and pack into `fileSystem` as this pack's (the pack renamed over
    /// this one's empty file). False, with nothing changed, when a link fails (the previous
    /// snapshot lost a file): the originals are then copied from the open pack.
    private func linkSourceLocked(_ source: OriginalsPack, into fileSystem: SecureFileSystem) -> Bool {
        let linkedPack = Self.packPath + ".previous"
        do {
            guard try fileSystem.link(Self.indexPath, from: source.fileSystem) else { return false }
            guard try fileSystem.link(Self.packPath, from: source.fileSystem, as: linkedPack),
                  rename(fileSystem.absolutePath(linkedPack), fileSystem.absolutePath(Self.packPath)) == 0 else {
                try? fileSystem.unlinkFile(linkedPack)
                try? fileSystem.unlinkFile(Self.indexPath)
                return false
            }
        } catch {
            try? fileSystem.unlinkFile(Self.indexPath)
            return false
        }
        // Every original is the source's now; reads go there (this pack's file is gone).
        return true
    }

    /// Appends the originals taken over from `source` to this pack, reading runs of neighbours
    /// (in the source's order, which is its file's) with one `pread` each. Called with `lock` held.
    private func copyAdoptedLocked(from source: OriginalsPack) throws(StoreError) {
        let table = source.table()
        var digests = try OriginalsIndexReader(source.fileSystem.absolutePath(Self.indexPath), shownAs: Self.indexPath)
        var position = 0
        while position < table.count {
            guard isAdopted(position) else {
                position += 1
                continue
            }
            // A run of taken-over originals that follow each other in the source's file.
            let first = table.place(at: position)
            var last = position
            var bytes = first.length
            while last + 1 < table.count, isAdopted(last + 1), bytes < Self.chunkSize {
                let next = table.place(at: last + 1)
                guard next.offset == first.offset + Int64(bytes) else { break }
                last += 1
                bytes += next.length
            }
            let run = try Self.readExactly(bytes, at: first.offset, from: source.descriptor)
            var start = 0
            for member in position...last {
                let length = table.length(at: member)
                // The whole digest, from the previous index file (memory has its fingerprint).
                let key = try digests.key(at: member)
                guard table.matches(key, at: member) else {
                    throw StoreError.io(operation: "read", path: Self.indexPath, errno: EIO)
                }
                if entries.find(key) == nil {
                    try writeLocked(Array(run[start..<(start + length)]), key: key)
                }
                start += length
            }
            position = last + 1
        }
        self.source = nil
        adopted = []
        adoptedCount = 0
    }

    /// This (published) pack's table.
    private func table() -> DigestTable {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    /// Appends an original and its index line. Called with `lock` held.
    private func writeLocked(_ bytes: [UInt8], key: DigestKey) throws(StoreError) {
        guard let writer = indexWriter else { throw StoreError.io(operation: "write", path: Self.packPath, errno: EBADF) }
        guard bytes.count <= DigestTable.maximumLength else {
            throw StoreError.io(operation: "write", path: Self.packPath, errno: EFBIG)
        }
        entries.insert(key, offset: end, length: bytes.count)
        indexPending += key.hex.utf8
        indexPending.append(0x09)
        indexPending += String(end).utf8
        indexPending.append(0x09)
        indexPending += String(bytes.count).utf8
        indexPending.append(0x0A)
        if indexPending.count >= Self.chunkSize {
            try writer.append(indexPending)
            indexPending.removeAll(keepingCapacity: true)
        }
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
