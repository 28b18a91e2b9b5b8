#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes and file ranges waiting to be written on one connection, in order.
///
/// Consecutive in-memory chunks are coalesced so that pipelined small responses leave in one
/// `send`. File ranges stay on disk until written (`sendfile`, or 64 KiB reads under TLS), so
/// a large file is never held in memory.
struct OutputQueue {
    enum Item {
        case bytes([UInt8])
        case file(OpenFile, Range<Int64>)
    }

    /// Bytes held in memory above which a connection stops reading further requests.
    static let highWater = 256 * 1024
    /// Files up to this size are read into memory with the response head (one syscall).
    static let inlineFileLimit: Int64 = 32 * 1024

    private(set) var items: [Item] = []
    /// How much of the first (bytes) item has been written.
    private(set) var offset = 0
    private(set) var bufferedBytes = 0

    var isEmpty: Bool { items.isEmpty }

    /// Whether the connection should stop producing responses until this drains.
    var isBackpressured: Bool {
        bufferedBytes >= Self.highWater || items.contains { if case .file = $0 { true } else { false } }
    }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bufferedBytes += bytes.count
        if case .bytes(var last)? = items.last {
            items[items.count - 1] = .bytes([])
            last.append(contentsOf: bytes)
            items[items.count - 1] = .bytes(last)
        } else {
            items.append(.bytes(bytes))
        }
    }

    /// Queues a file range; small ones are read now.
    /// - Returns: false when a small file could not be read completely.
    mutating func append(file: OpenFile, range: Range<Int64>) -> Bool {
        guard !range.isEmpty else { return true }
        if range.count <= Self.inlineFileLimit {
            guard let bytes = Self.read(file, range) else { return false }
            append(bytes)
            return true
        }
        items.append(.file(file, range))
        return true
    }

    static func read(_ file: OpenFile, _ range: Range<Int64>) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: Int(range.count))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return pread(file.descriptor, base + done, buffer.count - done, off_t(range.lowerBound) + off_t(done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    /// Marks `count` bytes of the first item as written.
    mutating func consumeBytes(_ count: Int) {
        guard case .bytes(let first)? = items.first else { return }
        offset += count
        bufferedBytes -= count
        if offset >= first.count {
            items.removeFirst()
            offset = 0
        }
    }

    /// Replaces the first file item's range after `count` bytes were sent from it.
    mutating func consumeFile(_ count: Int64) {
        guard case .file(let file, let range)? = items.first else { return }
        let rest = (range.lowerBound + count)..<range.upperBound
        if rest.isEmpty { items.removeFirst() } else { items[0] = .file(file, rest) }
    }

    /// Turns the head of a leading file item into a bytes item (for TLS, which cannot use
    /// `sendfile`). - Returns: false when the file could not be read.
    mutating func materializeLeadingFile(chunk: Int64 = 64 * 1024) -> Bool {
        guard case .file(let file, let range)? = items.first else { return true }
        let piece = range.lowerBound..<min(range.upperBound, range.lowerBound + chunk)
        guard let bytes = Self.read(file, piece) else { return false }
        consumeFile(Int64(piece.count))
        items.insert(.bytes(bytes), at: 0)
        offset = 0
        bufferedBytes += bytes.count
        return true
    }
}
