#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes and file ranges waiting to be written on one connection, in order.
///
/// In-memory output accumulates in one ``tail`` buffer (response heads, generated pages,
/// small files read straight into it), so that pipelined small responses leave in one `send`
/// and, in the steady state of a keep-alive connection, no buffer is allocated per response:
/// the tail keeps its capacity once written. A small file shared through the ``FileMemo`` is
/// read once and its kept bytes copied for later responses. A file range too large to inline
/// ends the tail: the tail moves into ``items`` and the range follows it there. File ranges
/// stay on disk until written (`sendfile`, or 64 KiB reads under TLS), so a large file is
/// never held in memory.
struct OutputQueue {
    enum Item {
        case bytes([UInt8])
        case file(OpenFile, Range<Int64>)
    }

    /// What is to be written next.
    enum Leading {
        /// Nothing is queued.
        case none
        /// In-memory bytes: see ``withUnsentBytes(_:)``.
        case bytes
        /// A file range.
        case file(OpenFile, Range<Int64>)
    }

    /// Bytes held in memory above which a connection stops reading further requests.
    static let highWater = 256 * 1024
    /// Files up to this size are read into memory with the response head (one syscall).
    static let inlineFileLimit: Int64 = 32 * 1024
    /// A written tail keeps its capacity up to this size for the next responses.
    static let retainedCapacity = 64 * 1024

    /// Output queued before ``tail``, in order.
    private(set) var items: [Item] = []
    /// In-memory output written after every item.
    private(set) var tail: [UInt8] = []
    /// How much of the leading bytes (the first item, or the tail when there are no items)
    /// has been written.
    private(set) var offset = 0
    private(set) var bufferedBytes = 0
    /// The number of file items queued.
    private var fileItems = 0

    var isEmpty: Bool { items.isEmpty && tail.isEmpty }

    /// Whether the connection should stop producing responses until this drains.
    var isBackpressured: Bool { bufferedBytes >= Self.highWater || fileItems > 0 }

    /// What ``EventLoop`` must write next.
    var leading: Leading {
        guard let first = items.first else { return tail.isEmpty ? .none : .bytes }
        switch first {
        case .bytes: return .bytes
        case .file(let file, let range): return .file(file, range)
        }
    }

    /// Calls `body` with the unwritten part of the leading in-memory bytes (empty when the
    /// leading output is a file or nothing).
    func withUnsentBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let start = offset
        if let first = items.first {
            guard case .bytes(let bytes) = first else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        }
        return tail.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    mutating func append(_ bytes: [UInt8]) {
        tail.append(contentsOf: bytes)
        bufferedBytes += bytes.count
    }

    /// Lets `write` append bytes to the end of the queue.
    mutating func appendBytes(_ write: (inout [UInt8]) -> Void) {
        let before = tail.count
        write(&tail)
        bufferedBytes += tail.count - before
    }

    /// Queues a file range; small ones are read now, straight into the tail.
    /// - Returns: false when a small file could not be read completely.
    mutating func append(file: OpenFile, range: Range<Int64>) -> Bool {
        guard !range.isEmpty else { return true }
        if range.count <= Self.inlineFileLimit {
            if let contents = file.contents, range.upperBound <= Int64(contents.count) {
                tail.append(contentsOf: contents[Int(range.lowerBound)..<Int(range.upperBound)])
                bufferedBytes += Int(range.count)
                return true
            }
            let start = tail.count
            tail.append(contentsOf: repeatElement(0, count: Int(range.count)))
            let complete = tail.withUnsafeMutableBytes { buffer in
                Self.read(file, range, into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
            }
            guard complete else {
                tail.removeSubrange(start...)
                return false
            }
            bufferedBytes += Int(range.count)
            if file.keepsContents, range == 0..<file.metadata.size { file.contents = Array(tail[start...]) }
            return true
        }
        if !tail.isEmpty {
            items.append(.bytes(tail))
            tail = []
        }
        items.append(.file(file, range))
        fileItems += 1
        return true
    }

    /// Reads `range` of `file` into `buffer` (exactly its size). - Returns: whether all was read.
    static func read(_ file: OpenFile, _ range: Range<Int64>, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return buffer.isEmpty }
        var done = 0
        while done < buffer.count {
            let count = pread(file.descriptor, base + done, buffer.count - done, off_t(range.lowerBound) + off_t(done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Marks `count` bytes of the leading in-memory bytes as written.
    mutating func consumeBytes(_ count: Int) {
        offset += count
        bufferedBytes -= count
        if let first = items.first {
            guard case .bytes(let bytes) = first, offset >= bytes.count else { return }
            items.removeFirst()
            offset = 0
        } else if offset >= tail.count {
            if tail.capacity <= Self.retainedCapacity { tail.removeAll(keepingCapacity: true) } else { tail = [] }
            offset = 0
        }
    }

    /// Replaces the first file item's range after `count` bytes were sent from it.
    mutating func consumeFile(_ count: Int64) {
        guard case .file(let file, let range)? = items.first else { return }
        let rest = (range.lowerBound + count)..<range.upperBound
        if rest.isEmpty {
            items.removeFirst()
            fileItems -= 1
        } else {
            items[0] = .file(file, rest)
        }
    }

    /// Turns the head of a leading file item into a bytes item (for TLS, which cannot use
    /// `sendfile`). - Returns: false when the file could not be read.
    mutating func materializeLeadingFile(chunk: Int64 = 64 * 1024) -> Bool {
        guard case .file(let file, let range)? = items.first else { return true }
        let piece = range.lowerBound..<min(range.upperBound, range.lowerBound + chunk)
        var bytes = [UInt8](repeating: 0, count: Int(piece.count))
        guard bytes.withUnsafeMutableBytes({ Self.read(file, piece, into: $0) }) else { return false }
        consumeFile(Int64(piece.count))
        items.insert(.bytes(bytes), at: 0)
        offset = 0
        bufferedBytes += bytes.count
        return true
    }
}
