import MirrorCore
import MirrorStore

/// Where the documents a crawl recorded are in its documents spill
/// (``CrawlSpills/documents``), for the rewrite phase: each record starts with its URL's id
/// and its length, so memory keeps only where each run of ``length`` documents starts (8 bytes
/// for 32 documents, where an entry of id, offset and length per document took 16: issue #27),
/// and a rewrite worker reads a run front to back.
struct DocumentRuns: Sendable {
    /// Documents per run: a rewrite worker takes a run at a time
    /// (``Crawler/rewriteDocuments(state:staging:originals:paths:previous:)``). Documents
    /// recorded together mostly lie in one folder: workers that took every other document
    /// created their files in the same folders at once and queued on each folder's lock (ext4
    /// takes it for every file created in the folder).
    static let length = 32

    /// The spill offset of each run's first document.
    private(set) var starts: [Int64] = []
    /// How many documents were recorded.
    private(set) var count = 0

    /// How many runs there are.
    var runCount: Int { starts.count }

    /// Notes the record of the next document, at `offset` in the spill.
    mutating func add(at offset: Int64) {
        if count % Self.length == 0 { starts.append(offset) }
        count += 1
    }

    /// How many documents run `run` has.
    func size(of run: Int) -> Int {
        min(Self.length, count - run * Self.length)
    }

    /// The record of one document: its URL's id and length (LEB128 numbers), then
    /// ``CrawlState/Document/write(to:)``'s bytes.
    static func record(id: UInt32, body: [UInt8]) -> [UInt8] {
        var header = ByteRecord.Writer(reservingCapacity: 16 + body.count)
        header.number(id)
        header.number(body.count)
        return header.bytes + body
    }

    /// Reads the documents of run `run` in order, handing each record's body to `body` with
    /// its id (the bytes are valid only during the call), or nil for one that cannot be read;
    /// after a header that cannot be read the rest of the run cannot be found, and each of
    /// its documents is handed as nil.
    func forEach(inRun run: Int, spill: SpillFile, _ body: (_ record: (id: UInt32, bytes: UnsafeRawBufferPointer)?) -> Void) {
        var offset = starts[run]
        var readable = true
        for _ in 0..<size(of: run) {
            guard readable, let (id, length, headerLength) = Self.header(at: offset, in: spill) else {
                readable = false
                body(nil)
                continue
            }
            let start = offset + Int64(headerLength)
            let handed = (try? spill.withBytes(at: start, count: length) { bytes in body((id, bytes)) }) != nil
            if !handed { body(nil) }
            offset = start + Int64(length)
        }
    }

    /// A record's id, body length and header length.
    private static func header(at offset: Int64, in spill: SpillFile) -> (UInt32, Int, Int)? {
        let available = Int(min(20, spill.size - offset))
        guard available > 0 else { return nil }
        return try? spill.withBytes(at: offset, count: available) { bytes -> (UInt32, Int, Int)? in
            var reader = ByteRecord.Reader(bytes)
            guard let id = reader.number(), id <= UInt64(UInt32.max), let length = reader.int() else { return nil }
            return (UInt32(id), length, reader.consumed)
        }
    }
}
