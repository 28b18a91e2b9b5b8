#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MirrorCore

/// A published snapshot's manifest file, read without loading it: an index of where each
/// entry's line is, and the file kept open to read a line again when it is asked for.
///
/// A refresh needs the previous snapshot's entries by URL (its ETags and references) and, at
/// the end, all of them in order; a ``Manifest`` would hold them all in memory, about 2 KB a
/// URL. This holds, per entry, a 64-bit hash of its URL, the line's offset and length (20
/// bytes), what it is (``Kinds``) and its local path's fingerprint (``pathHash(forKey:)``),
/// in flat arrays, with an open-addressing table of 32-bit slots (load between 3/8 and 3/4):
/// about 35 to 40 bytes an entry, and no String. ``entry(forKey:)`` reads the line again
/// (`pread`) and decodes it, checking its URL against the key (hashes can collide).
///
/// ``open(in:at:)`` reads the whole file once, in chunks, through the same line steps as
/// ``Manifest/load(from:at:)`` (``ManifestDecoder``), so it accepts the same files and
/// reports the same errors on the same lines. Hashes are Swift's `String` hashes (seeded per
/// process, so a hostile site cannot choose URLs that collide) and keys are compared with
/// `==`, so lookups and duplicates behave as the `Manifest` dictionary's.
///
/// Thread-safe: everything is immutable once opened, and `pread` needs no shared offset.
public final class ManifestIndex: @unchecked Sendable {
    /// The manifest file's path below the store's root.
    public let relativePath: String
    private let descriptor: Int32
    /// ``Manifest/fixedFieldCount``, or ``Manifest/fixedFieldCountVersion1`` for a version 1
    /// file.
    private let fixedFields: Int
    private let table: Table
    /// Whether ``ManifestRecords/carry(_:id:)`` may copy this file's lines into a new
    /// manifest: the current format (version 2), every line in the order the new file is
    /// written in.
    let linesCanBeCarried: Bool

    /// Lines are read back in blocks of this size by ``forEach(_:)``, and the file is read in
    /// chunks of this size when opened.
    static let chunkBytes = 256 * 1024

    init(relativePath: String, descriptor: Int32, fixedFields: Int, table: Table, isSorted: Bool) {
        self.relativePath = relativePath
        self.descriptor = descriptor
        self.fixedFields = fixedFields
        self.table = table
        linesCanBeCarried = isSorted && fixedFields == Manifest.fixedFieldCount
    }

    deinit { _ = close(descriptor) }

    /// The number of entries.
    public var count: Int { table.count }

    /// The bytes the index holds in memory (its arrays' capacities).
    var indexBytes: Int { table.bytes }

    /// The entry for a normalised URL, read from the file and decoded; nil when absent.
    ///
    /// The file was checked whole when it was opened and a published snapshot does not
    /// change; should reading it fail all the same, the entry is reported absent (a refresh
    /// then fetches the URL without a condition).
    /// - Parameter key: a ``ManifestEntry/url`` value.
    public func entry(forKey key: String) -> ManifestEntry? {
        let hash = Self.hash(key)
        for index in table.candidates(hash: hash) {
            if let entry = try? readEntry(index), entry.url == key { return entry }
        }
        return nil
    }

    /// The number of the line (in file order, from 0) of the only entry whose key has `key`'s
    /// hash, reading nothing: nil when none has, or when two have (a shared 64-bit hash; the
    /// caller then does without the number). For a key ``entry(forKey:)`` found, that line is
    /// the key's own.
    func onlyLine(forKey key: String) -> Int? {
        let found = table.candidates(hash: Self.hash(key))
        return found.count == 1 ? found[0] : nil
    }

    /// What an entry is, noted when the index is built, so that a walk over some of them
    /// (``forEach(kinds:_:)``) decodes only those.
    public struct Kinds: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A 2xx with a local path: a file of the snapshot.
        public static let stored = Kinds(rawValue: 1)
        /// Carried over unrevalidated by a run that stopped early (``ManifestEntry/stale``).
        public static let stale = Kinds(rawValue: 2)
        /// A 3xx (a redirect).
        public static let redirect = Kinds(rawValue: 4)

        init(status: Int64?, hasLocalPath: Bool, isStale: Bool) {
            var kinds: Kinds = []
            if let status {
                if (200...299).contains(status), hasLocalPath { kinds.insert(.stored) }
                if (300...399).contains(status) { kinds.insert(.redirect) }
            }
            if isStale { kinds.insert(.stale) }
            self = kinds
        }
    }

    /// The fingerprint of the local path a URL's links were written to in this snapshot: its
    /// own file's, or, for a redirect without one, its target's; 0 when it had none. Compared
    /// with another run's (``pathHash(_:)`` of its path), it tells whether a link would be
    /// written the same, without reading the file.
    /// - Parameter key: a ``ManifestEntry/url`` value.
    public func pathHash(forKey key: String) -> UInt64 {
        let found = table.candidates(hash: Self.hash(key))
        if found.count == 1 { return table.pathHashes[found[0]] }
        // Two keys share the hash (or none has it): read the lines to find the right one.
        for index in found {
            if let entry = try? readEntry(index), entry.url == key { return table.pathHashes[index] }
        }
        return 0
    }

    /// The fingerprint of a local path, as ``pathHash(forKey:)`` gives it: Swift's `String`
    /// hash, seeded per process (so both sides of a comparison must come from one process).
    public static func pathHash(_ path: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(path)
        let value = UInt64(truncatingIfNeeded: hasher.finalize())
        return value == 0 ? 1 : value
    }

    /// Calls `body` with every entry of one of `kinds`, in file order, decoding only those.
    /// - Throws: as ``forEach(_:)``.
    public func forEach(kinds: Kinds, _ body: (ManifestEntry) throws(StoreError) -> Void) throws(StoreError) {
        try forEach(where: { !table.kinds[$0].isDisjoint(with: kinds) }, body)
    }

    /// Calls `body` with every entry in file order (sorted by URL, as the file is written),
    /// decoded one at a time; the file is read in blocks of ``chunkBytes``.
    /// - Parameter body: receives each entry; its error stops the walk.
    /// - Throws: `body`'s error; ``StoreError/io(operation:path:errno:)`` when reading fails,
    ///   ``StoreError/manifestCorrupt(path:line:reason:)`` when the file changed since it was
    ///   opened.
    public func forEach(_ body: (ManifestEntry) throws(StoreError) -> Void) throws(StoreError) {
        try forEach(where: { _ in true }, body)
    }

    private func forEach(where wanted: (Int) -> Bool, _ body: (ManifestEntry) throws(StoreError) -> Void) throws(StoreError) {
        try forEachLine(where: wanted) { (index, line) throws(StoreError) in
            try body(try ManifestDecoder.decodeEntry(line: line, path: relativePath, lineNumber: index + 2, fixedFields: fixedFields))
        }
    }

    /// Calls `body` with the bytes of each wanted entry's line (without its `\n`) and its
    /// number, in file order, read back in blocks of ``chunkBytes``.
    /// - Throws: `body`'s error; ``StoreError/io(operation:path:errno:)``;
    ///   ``StoreError/manifestCorrupt(path:line:reason:)`` when the file changed since it was
    ///   opened.
    func forEachLine(
        where wanted: (Int) -> Bool, _ body: (Int, UnsafeBufferPointer<UInt8>) throws(StoreError) -> Void
    ) throws(StoreError) {
        var block: [UInt8] = []
        var blockStart: UInt64 = 0
        for index in 0..<table.count where wanted(index) {
            let offset = table.offsets[index]
            let length = Int(table.lengths[index])
            if offset < blockStart || offset + UInt64(length) > blockStart + UInt64(block.count) {
                block = try read(at: offset, count: max(Self.chunkBytes, length))
                blockStart = offset
                guard block.count >= length else { throw changed(index) }
            }
            let start = Int(offset - blockStart)
            try block.withUnsafeBufferPointer { (buffer) throws(StoreError) in
                try body(index, UnsafeBufferPointer(rebasing: buffer[start..<(start + length)]))
            }
        }
    }

    /// Entry `index`, read again and decoded.
    /// - Throws: the errors of ``read(at:count:)``; ``StoreError/manifestCorrupt(path:line:reason:)``.
    func readEntry(_ index: Int) throws(StoreError) -> ManifestEntry {
        let length = Int(table.lengths[index])
        let line = try read(at: table.offsets[index], count: length)
        guard line.count == length else { throw changed(index) }
        return try Self.decode(line, path: relativePath, lineNumber: index + 2, fixedFields: fixedFields)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    /// - Throws: ``StoreError/io(operation:path:errno:)`` (operation `pread`).
    func read(at offset: UInt64, count: Int) throws(StoreError) -> [UInt8] {
        try Self.read(descriptor, at: offset, count: count, path: relativePath)
    }

    private func changed(_ index: Int) -> StoreError {
        .manifestCorrupt(path: relativePath, line: index + 2, reason: "the file changed after it was opened")
    }

    /// Up to `count` bytes of `descriptor` at `offset` (fewer at the end of the file).
    /// - Throws: ``StoreError/io(operation:path:errno:)`` (operation `pread`).
    static func read(_ descriptor: Int32, at offset: UInt64, count: Int, path: String) throws(StoreError) -> [UInt8] {
        switch PositionalIO.read(from: descriptor, at: Int64(offset), count: count) {
        case .success(let bytes): return bytes
        case .failure(let error): throw .io(operation: "pread", path: path, errno: error.errno)
        }
    }

    /// Decodes one line (without its `\n`).
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)``.
    static func decode(_ line: [UInt8], path: String, lineNumber: Int, fixedFields: Int) throws(StoreError) -> ManifestEntry {
        try line.withUnsafeBufferPointer { (buffer) throws(StoreError) -> ManifestEntry in
            try ManifestDecoder.decodeEntry(line: buffer, path: path, lineNumber: lineNumber, fixedFields: fixedFields)
        }
    }

    /// The 64-bit hash of a key: ``MirrorCore/WebURL/fingerprint(of:)`` (Swift's `String` hash,
    /// which agrees with `String`'s `==`), so that a crawl can look an entry's key up among its
    /// own URLs by this number (``forEachFingerprint(_:)``).
    static func hash(_ key: String) -> UInt64 {
        WebURL.fingerprint(of: key)
    }

    /// Calls `body` with each entry's key fingerprint (``MirrorCore/WebURL/fingerprint(of:)``)
    /// and path fingerprint (``pathHash(forKey:)``), in file order, reading nothing from the
    /// file.
    public func forEachFingerprint(_ body: (_ key: UInt64, _ path: UInt64) -> Void) {
        for index in 0..<table.count { body(table.hashes[index], table.pathHashes[index]) }
    }

    /// Calls `body` with the key fingerprint of each entry of one of `kinds`, in file order,
    /// reading nothing from the file.
    public func forEachFingerprint(kinds: Kinds, _ body: (_ key: UInt64) -> Void) {
        for index in 0..<table.count where !table.kinds[index].isDisjoint(with: kinds) { body(table.hashes[index]) }
    }
}
