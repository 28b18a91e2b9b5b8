#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MirrorCore

// Opening a manifest file: one pass over it in chunks, checking every line as
// `Manifest.load` does, and keeping only where each entry's line is.

extension ManifestIndex {
    /// Opens and checks a manifest file, keeping only an index of where each entry's line is.
    ///
    /// The checks are ``Manifest/load(from:at:)``'s, with the same errors on the same lines:
    /// the header (version 1 or 2), every line decodes, no URL twice, the `#end` line with the
    /// right count and nothing after it. The file is read in chunks of ``chunkBytes`` (it is
    /// 13 MB at 23,000 URLs), and stays open (`O_RDONLY | O_NOFOLLOW | O_CLOEXEC`, reached
    /// through ``SecureFileSystem``'s walk, which refuses symbolic links).
    /// - Parameters:
    ///   - fileSystem: the store holding the file (a published snapshot).
    ///   - relativePath: the file's path below its root.
    /// - Returns: the index, or nil when there is no such file (or folder).
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)`` naming the bad line;
    ///   ``StoreError/symlinkRefused(path:)``, ``StoreError/unsafePath(path:reason:)``,
    ///   ``StoreError/io(operation:path:errno:)`` for the file's opening and reading.
    public static func open(in fileSystem: SecureFileSystem, at relativePath: String) throws(StoreError) -> ManifestIndex? {
        let components = try SecureFileSystem.components(of: relativePath)
        let directory: DirectoryHandle
        do {
            directory = try fileSystem.openDirectory(components: components.dropLast(), create: false)
        } catch where error.isNotFound {
            return nil
        }
        let descriptor = openat(directory.descriptor, components[components.count - 1], O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw .symlinkRefused(path: relativePath) }
            throw .io(operation: "openat", path: relativePath, errno: code)
        }
        var scanner = Scanner(descriptor: descriptor, path: relativePath)
        do {
            try scanner.run()
        } catch {
            _ = close(descriptor)
            throw error
        }
        scanner.resolveRedirects()
        return ManifestIndex(relativePath: relativePath, descriptor: descriptor, fixedFields: scanner.decoder.fixedFields,
                             table: scanner.table, isSorted: scanner.isSorted)
    }

    /// One pass over a manifest file, a chunk at a time.
    struct Scanner {
        let descriptor: Int32
        let path: String
        var decoder: ManifestDecoder
        var table = Table()
        /// Redirects without a file of their own, and the URL each leads to (``resolveRedirects()``).
        var redirects: [(index: Int, target: String)] = []
        /// Whether every line's URL sorts after the one before, in the order ``ManifestRecords``
        /// writes (the bytes of ``ManifestRecords/sortKey(of:)``): the manifest files this
        /// project writes are, a file edited by hand may not be.
        var isSorted = true
        /// The previous line's sort key, as bytes.
        private var lastKey: [UInt8] = []

        init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
            decoder = ManifestDecoder(buffer: UnsafeBufferPointer(start: nil, count: 0), path: path, internsReferences: false)
        }

        /// Reads the file to its end.
        /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)``,
        ///   ``StoreError/io(operation:path:errno:)`` (operation `read`).
        mutating func run() throws(StoreError) {
            // The bytes from `pendingOffset` on that are not read as lines yet: a line cut by the
            // end of a chunk waits here for the next one.
            var pending: [UInt8] = []
            pending.reserveCapacity(2 * ManifestIndex.chunkBytes)
            var pendingOffset: UInt64 = 0
            var chunk = [UInt8](repeating: 0, count: ManifestIndex.chunkBytes)
            while true {
                let count = try readChunk(into: &chunk)
                if count == 0 { break }
                pending.append(contentsOf: chunk[..<count])
                let consumed = try pending.withUnsafeBufferPointer { (buffer) throws(StoreError) -> Int in
                    try readLines(buffer, at: pendingOffset)
                }
                pending.removeSubrange(..<consumed)
                pendingOffset += UInt64(consumed)
            }
            if !pending.isEmpty { throw decoder.truncatedLine() }
            try decoder.finish()
        }

        /// Reads the whole lines of `buffer`, which starts at `fileOffset` in the file.
        /// - Returns: the bytes read (up to the last `\n`).
        /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)``, and the read errors of a
        ///   duplicate's check.
        private mutating func readLines(_ buffer: UnsafeBufferPointer<UInt8>, at fileOffset: UInt64) throws(StoreError) -> Int {
            decoder.buffer = buffer
            defer { decoder.buffer = UnsafeBufferPointer(start: nil, count: 0) }
            var start = 0
            while true {
                let end = decoder.find(0x0A, from: start, to: buffer.count)
                guard end < buffer.count else { return start }
                if let entry = try decoder.nextLine(start..<end, decode: { (decoder, line) throws(StoreError) in
                    try decoder.indexFields(line)
                }) {
                    try add(entry, offset: fileOffset + UInt64(start), length: end - start)
                }
                start = end + 1
            }
        }

        /// Adds an entry's line to the table.
        /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)`` for a URL seen before (or a
        ///   line of 4 GiB); ``StoreError/io(operation:path:errno:)`` reading the earlier line
        ///   whose hash is the same.
        private mutating func add(_ entry: ManifestDecoder.IndexFields, offset: UInt64, length: Int) throws(StoreError) {
            guard let length = UInt32(exactly: length), table.count < Int(UInt32.max - 1) else {
                throw decoder.corrupt("line or file too long for the index")
            }
            // Locals only: the closure must not touch `self` while `table` changes.
            let descriptor = self.descriptor, path = self.path, fixedFields = decoder.fixedFields, url = entry.url
            if isSorted { noteOrder(of: url, first: table.count == 0) }
            let kinds = Kinds(status: entry.status, hasLocalPath: entry.localPath != nil, isStale: entry.isStale)
            let pathHash = entry.localPath.map(ManifestIndex.pathHash) ?? 0
            if kinds.contains(.redirect), entry.localPath == nil, let target = entry.firstReference {
                redirects.append((table.count, target))
            }
            let added = try table.insert(hash: ManifestIndex.hash(url), offset: offset, length: length, kinds: kinds,
                                         pathHash: pathHash) {
                (index, offset, length) throws(StoreError) -> Bool in
                let line = try ManifestIndex.read(descriptor, at: offset, count: Int(length), path: path)
                return try ManifestIndex.decode(line, path: path, lineNumber: index + 2, fixedFields: fixedFields).url == url
            }
            guard added else { throw decoder.corrupt("duplicate entry for \(url)") }
        }

        /// Clears ``isSorted`` unless `url`'s sort key comes after the previous line's
        /// (``ManifestRecords/precedes(_:_:)``, one `memcmp`: the generic comparison of two
        /// strings' bytes took 0.4 ms for 4,700 lines).
        private mutating func noteOrder(of url: String, first: Bool) {
            var key = ManifestRecords.sortKey(of: url)
            key.withUTF8 { bytes in
                if !first, !lastKey.withUnsafeBytes({ ManifestRecords.precedes($0, bytes) }) { isSorted = false }
                lastKey.removeAll(keepingCapacity: true)
                lastKey.append(contentsOf: bytes)
            }
        }

        /// Gives each redirect without a file the path fingerprint of the entry it leads to (one
        /// hop, as links to it are written).
        mutating func resolveRedirects() {
            for (index, target) in redirects {
                let found = table.candidates(hash: ManifestIndex.hash(target))
                // A 64-bit hash shared by two keys of one manifest: leave the redirect without
                // a path rather than read lines to choose (its links are then written again).
                guard found.count == 1 else { continue }
                table.pathHashes[index] = table.pathHashes[found[0]]
            }
            redirects = []
        }

        /// Reads the file's next bytes into `chunk`.
        /// - Returns: how many; 0 at the end of the file.
        /// - Throws: ``StoreError/io(operation:path:errno:)`` (operation `read`).
        private func readChunk(into chunk: inout [UInt8]) throws(StoreError) -> Int {
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count >= 0 { return count }
                if errno != EINTR { throw .io(operation: "read", path: path, errno: errno) }
            }
        }
    }

    /// The index's arrays: per entry (in file order) its key's hash, its line's offset and
    /// length; and the open-addressing table of slots holding entry numbers plus one (0 is an
    /// empty slot), linear probing, a power of two long and at most 3/4 full.
    struct Table {
        var hashes = ChunkedArray<UInt64>()
        var offsets = ChunkedArray<UInt64>()
        var lengths = ChunkedArray<UInt32>()
        /// What each entry is (``Kinds``).
        var kinds = ChunkedArray<Kinds>()
        /// Each entry's local path's fingerprint (``ManifestIndex/pathHash(_:)``), its redirect
        /// target's for a redirect without a file, 0 for none.
        var pathHashes = ChunkedArray<UInt64>()
        var slots = [UInt32](repeating: 0, count: 16)

        var count: Int { hashes.count }

        /// The bytes the arrays hold (their capacities).
        var bytes: Int {
            hashes.storageBytes + offsets.storageBytes + lengths.storageBytes + kinds.storageBytes + pathHashes.storageBytes
                + slots.capacity * 4
        }

        /// The entries whose key has this hash, in probe order.
        func candidates(hash: UInt64) -> [Int] {
            var found: [Int] = []
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                let index = Int(slots[slot] - 1)
                if hashes[index] == hash { found.append(index) }
                slot = (slot + 1) & mask
            }
            return found
        }

        /// Adds an entry, unless one with the same key is there.
        /// - Parameter sameKey: whether entry `index` (whose hash is the same; its line's offset
        ///   and length given) has the same key.
        /// - Returns: false when the key was there already.
        /// - Throws: `sameKey`'s error.
        mutating func insert(
            hash: UInt64, offset: UInt64, length: UInt32, kinds: Kinds = [], pathHash: UInt64 = 0,
            sameKey: (_ index: Int, _ offset: UInt64, _ length: UInt32) throws(StoreError) -> Bool
        ) throws(StoreError) -> Bool {
            if (count + 1) * 4 > slots.count * 3 { grow() }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                let other = Int(slots[slot] - 1)
                if hashes[other] == hash, try sameKey(other, offsets[other], lengths[other]) { return false }
                slot = (slot + 1) & mask
            }
            slots[slot] = UInt32(count + 1)
            hashes.append(hash)
            offsets.append(offset)
            lengths.append(length)
            self.kinds.append(kinds)
            pathHashes.append(pathHash)
            return true
        }

        /// Doubles the slots and places every entry again.
        private mutating func grow() {
            slots = [UInt32](repeating: 0, count: slots.count * 2)
            let mask = slots.count - 1
            for (index, hash) in hashes.enumerated() {
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = UInt32(index + 1)
            }
        }
    }
}
