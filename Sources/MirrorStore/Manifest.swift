import MirrorCore

/// The per-site record of every fetched URL, keyed by normalised URL.
///
/// A value type: load it, change it with ``upsert(_:)`` and ``remove(_:)``, save it. Saving
/// streams the file through an ``AtomicFileWriter`` (a temporary file renamed into place), so a
/// crash leaves the previous manifest or the new one. The file format is described in
/// `Manifest+Format.swift`; it is a line-oriented text format that loads 100,000 entries in
/// a fraction of a second.
public struct Manifest: Sendable, Sequence {
    private var storage: [String: ManifestEntry]

    /// An empty manifest, or one holding `entries` (a later entry for the same URL wins).
    /// - Parameter entries: the entries to start with.
    public init(entries: [ManifestEntry] = []) {
        storage = Dictionary(entries.map { ($0.url, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The number of entries.
    public var count: Int { storage.count }

    /// Whether there are no entries.
    public var isEmpty: Bool { storage.isEmpty }

    /// The entry for a URL (its fragment ignored), if there is one.
    /// - Parameter url: the URL to look up.
    public func entry(for url: WebURL) -> ManifestEntry? {
        storage[url.withoutFragment.string]
    }

    /// The entry stored under a normalised URL string, if there is one.
    /// - Parameter key: a ``ManifestEntry/url`` value.
    public func entry(forKey key: String) -> ManifestEntry? {
        storage[key]
    }

    /// Adds an entry or replaces the one with the same URL.
    /// - Parameter entry: the new entry.
    public mutating func upsert(_ entry: ManifestEntry) {
        storage[entry.url] = entry
    }

    /// Removes and returns the entry for a URL (fragment ignored), if there was one.
    /// - Parameter url: the URL to forget.
    @discardableResult
    public mutating func remove(_ url: WebURL) -> ManifestEntry? {
        storage.removeValue(forKey: url.withoutFragment.string)
    }

    /// Replaces every entry at once; used by the decoder.
    mutating func replaceStorage(_ entries: [String: ManifestEntry]) {
        storage = entries
    }

    /// Entries in no particular order.
    public func makeIterator() -> Dictionary<String, ManifestEntry>.Values.Iterator {
        storage.values.makeIterator()
    }

    /// The URLs in the order in which they are saved (sorting them moves 16-byte strings, not
    /// whole entries).
    var sortedKeys: [String] {
        storage.keys.sorted()
    }

    /// Entries sorted by URL, the order in which they are saved.
    public var sortedEntries: [ManifestEntry] {
        storage.values.sorted { $0.url < $1.url }
    }

    /// Loads a manifest file.
    /// - Parameters:
    ///   - fileSystem: the store holding the file.
    ///   - relativePath: the file's path below the store's root.
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)`` naming the bad line, and
    ///   the read errors of ``SecureFileSystem/read(_:)`` (`isNotFound` when missing).
    public static func load(from fileSystem: SecureFileSystem, at relativePath: String) throws(StoreError) -> Manifest {
        let bytes = try fileSystem.read(relativePath)
        return try decode(bytes, path: relativePath)
    }

    /// Loads a manifest file, or returns an empty manifest when there is none yet.
    /// - Parameters:
    ///   - fileSystem: the store holding the file.
    ///   - relativePath: the file's path below the store's root.
    /// - Throws: as ``load(from:at:)``, except for a missing file.
    public static func loadIfPresent(
        from fileSystem: SecureFileSystem, at relativePath: String
    ) throws(StoreError) -> Manifest {
        do {
            return try load(from: fileSystem, at: relativePath)
        } catch where error.isNotFound {
            return Manifest()
        }
    }

    /// Saves the manifest atomically, mode 0600.
    /// - Parameters:
    ///   - fileSystem: the store to write into.
    ///   - relativePath: the file's path below the store's root.
    /// - Throws: the errors of ``SecureFileSystem/beginWrite(_:)`` and ``AtomicFileWriter``, such as
    ///   ``StoreError/diskFull(path:)``; the previous file, if any, is left as it was.
    public func save(to fileSystem: SecureFileSystem, at relativePath: String) throws(StoreError) {
        let writer = try fileSystem.beginWrite(relativePath)
        try encode(chunkBytes: Self.saveChunkBytes) { (chunk: inout [UInt8]) throws(StoreError) in
            try writer.append(chunk)
            chunk.removeAll(keepingCapacity: true)
        }
        try writer.commit()
    }

    /// The manifest is written in chunks of about this size.
    static let saveChunkBytes = 256 * 1024
}
