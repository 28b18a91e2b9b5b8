import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only scratch file inside a staging snapshot (`_mirror/tmp/…`): where a crawl puts
/// what it would otherwise hold in memory for every URL (URL texts, the prepared rewrites of
/// documents, local paths), so that its memory does not grow with the site (issue #27).
///
/// Appends return the record's offset and are gathered in a buffer written out every
/// ``flushBytes`` (one `write` for hundreds of records); reads take the bytes from that buffer
/// or from the file (`pread`, or a ``SpillPageCache`` of pages already read), so a record can
/// be read back at once. Records are never changed.
///
/// A failed write (a full disk) does not lose anything already appended: the bytes stay in the
/// buffer, every later append stays in memory too, reads still work, and ``failure`` tells the
/// owner, which ends the run with that error. So the callers of ``append(_:)``, pure state
/// machines among them, need no error path of their own.
///
/// ``inMemory()`` makes one that never touches the disk (tests, `serve --live`'s single
/// documents). Thread-safe.
public final class SpillFile: @unchecked Sendable {
    /// The buffer is written out once it holds this many bytes.
    public static let flushBytes = 256 * 1024

    private let lock = NSLock()
    /// -1 for an in-memory spill.
    private let descriptor: Int32
    /// The path shown in errors (relative to the snapshot).
    private let shownAs: String
    private let absolutePath: String?
    /// Bytes appended but not in the file yet; they start at `pendingStart`.
    private var pending: [UInt8] = []
    private var pendingStart: Int64 = 0
    private var failed: StoreError?
    /// Pages already in the file, for reads without a system call; nil: every read is a `pread`.
    private var cache: SpillPageCache?

    private init(descriptor: Int32, shownAs: String, absolutePath: String?, cache: SpillPageCache.Configuration? = nil) {
        self.descriptor = descriptor
        self.shownAs = shownAs
        self.absolutePath = absolutePath
        self.cache = cache.map(SpillPageCache.init)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// How a spill file's records will be read back, for its page cache (``SpillPageCache``).
    public enum ReadPattern: Sendable {
        /// Mostly in runs of neighbouring records: a few large pages.
        case runs
        /// In any order: many small pages, which hold a whole file of up to 1 MiB.
        case scattered

        var cache: SpillPageCache.Configuration {
            switch self {
            case .runs: SpillPageCache.Configuration(pageSize: 64 * 1024, slots: 4)
            case .scattered: SpillPageCache.Configuration(pageSize: 4 * 1024, slots: 256)
            }
        }
    }

    /// Creates the file (mode 0600, never through a symbolic link), replacing a leftover one.
    /// Its folder must exist.
    /// - Parameters:
    ///   - fileSystem: the staging snapshot.
    ///   - relativePath: where, below its root (the crawler uses `_mirror/tmp/…`).
    ///   - reads: how records will be read back, for a page cache (at most 1 MiB); nil for none.
    /// - Throws: ``StoreError`` from `open`.
    public static func create(in fileSystem: SecureFileSystem, at relativePath: String,
                              reads: ReadPattern? = nil) throws(StoreError) -> SpillFile {
        let path = fileSystem.absolutePath(relativePath)
        unlink(path)
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: relativePath) }
        return SpillFile(descriptor: descriptor, shownAs: relativePath, absolutePath: path, cache: reads?.cache)
    }

    /// A spill that keeps every record in memory.
    public static func inMemory() -> SpillFile {
        SpillFile(descriptor: -1, shownAs: "(memory)", absolutePath: nil)
    }

    /// The first write that failed, if one did (everything appended since is in memory).
    public var failure: StoreError? {
        lock.lock()
        defer { lock.unlock() }
        return failed
    }

    /// Bytes appended so far.
    public var size: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return pendingStart + Int64(pending.count)
    }

    /// Appends a record.
    /// - Parameter bytes: the record.
    /// - Returns: its offset, for ``read(at:count:)``.
    @discardableResult
    public func append(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        let offset = pendingStart + Int64(pending.count)
        if pending.capacity == 0, descriptor >= 0 { pending.reserveCapacity(Self.flushBytes + 64 * 1024) }
        pending.append(contentsOf: bytes)
        if descriptor >= 0, failed == nil, pending.count >= Self.flushBytes { flushLocked() }
        return offset
    }

    /// Appends a record (see ``append(_:)-(UnsafeRawBufferPointer)``).
    @discardableResult
    public func append(_ bytes: [UInt8]) -> Int64 {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends a text's UTF-8 bytes as a record.
    @discardableResult
    public func append(utf8 text: String) -> Int64 {
        var text = text
        return text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Writes the buffer out now (the crawl calls it before its rewrite phase, whose readers
    /// then find nearly everything in the file).
    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0, failed == nil { flushLocked() }
    }

    /// A record's bytes.
    /// - Parameters:
    ///   - offset: what ``append(_:)-(UnsafeRawBufferPointer)`` returned.
    ///   - count: the record's length.
    /// - Throws: ``StoreError`` when the file cannot be read (or ends early).
    public func read(at offset: Int64, count: Int) throws(StoreError) -> [UInt8] {
        try withBytes(at: offset, count: count) { Array($0) }
    }

    /// A record read as UTF-8 text.
    public func readString(at offset: Int64, count: Int) throws(StoreError) -> String {
        try withBytes(at: offset, count: count) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with a record's bytes (no array made for a record that is still buffered).
    public func withBytes<R>(at offset: Int64, count: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(StoreError) -> R {
        lock.lock()
        if offset >= pendingStart {
            defer { lock.unlock() }
            let start = Int(offset - pendingStart)
            guard start + count <= pending.count else {
                throw StoreError.io(operation: "read", path: shownAs, errno: EINVAL)
            }
            return pending.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
        }
        // Below `pendingStart` the file never changes: no lock needed for the read itself.
        if let cache, let number = cache.page(holding: offset, count: count, flushedSize: pendingStart) {
            let pageStart = cache.start(of: number)
            let start = Int(offset - pageStart)
            if let bytes = cache.bytes(of: number) {
                lock.unlock()
                return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
            }
            lock.unlock()
            let pageSize = cache.configuration.pageSize
            if case .success(let bytes) = PositionalIO.read(from: descriptor, at: pageStart, count: pageSize), bytes.count == pageSize {
                lock.lock()
                self.cache?.keep(number, bytes: bytes)
                lock.unlock()
                return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
            }
            // A failed page read: the record alone is read, and its error reported.
        } else {
            lock.unlock()
        }
        switch PositionalIO.read(from: descriptor, at: offset, count: count) {
        case .success(let bytes) where bytes.count == count:
            return bytes.withUnsafeBytes { body($0) }
        case .success:
            throw readFailed(StoreError.io(operation: "read", path: shownAs, errno: EIO))
        case .failure(let error):
            throw readFailed(StoreError.from(errno: error.errno, operation: "read", path: shownAs))
        }
    }

    /// Remembers a failed read as the spill's ``failure`` too (its owner ends the run).
    private func readFailed(_ error: StoreError) -> StoreError {
        lock.lock()
        if failed == nil { failed = error }
        lock.unlock()
        return error
    }

    /// Closes and deletes the file (a spill's records live as long as the run that made them).
    public func remove() {
        lock.lock()
        defer { lock.unlock() }
        if let absolutePath { unlink(absolutePath) }
        pending = []
    }

    /// Writes `pending` at `pendingStart`. On failure the bytes stay in `pending`, and so does
    /// everything appended later (``failure``). Called with `lock` held.
    private func flushLocked() {
        guard !pending.isEmpty else { return }
        let code = PositionalIO.write(pending, to: descriptor, at: pendingStart)
        guard code == 0 else {
            failed = StoreError.from(errno: code, operation: "write", path: shownAs)
            return
        }
        pendingStart += Int64(pending.count)
        pending.removeAll(keepingCapacity: true)
    }
}
