/// Splits the bytes the browser writes on its DevTools pipe into messages.
///
/// With `--remote-debugging-pipe`, Chromium writes each JSON message followed by one NUL byte
/// (and reads ours the same way). Bytes arrive in arbitrary chunks; the framer keeps the
/// partial message between calls. A message longer than ``maximumMessageBytes`` is a broken or
/// hostile peer: the framer reports it rather than buffering without bound.
struct DevToolsFramer: Sendable {
    /// The largest message accepted: a captured DOM or a large response preview stays well
    /// below it.
    let maximumMessageBytes: Int
    private var pending: [UInt8] = []

    /// - Parameter maximumMessageBytes: the longest message, NUL excluded.
    init(maximumMessageBytes: Int = 512 * 1024 * 1024) {
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// What feeding bytes gave.
    enum Output: Equatable {
        /// A complete message, without its NUL.
        case message([UInt8])
        /// A message grew past the limit; the connection is unusable.
        case oversized(bytes: Int)
    }

    /// Adds `chunk` and returns every message it completed, in order.
    mutating func feed<Chunk: Collection<UInt8>>(_ chunk: Chunk) -> [Output] {
        var outputs: [Output] = []
        var start = chunk.startIndex
        while let end = chunk[start...].firstIndex(of: 0) {
            if pending.isEmpty {
                outputs.append(.message(Array(chunk[start..<end])))
            } else {
                pending.append(contentsOf: chunk[start..<end])
                outputs.append(.message(pending))
                pending = []
            }
            start = chunk.index(after: end)
        }
        pending.append(contentsOf: chunk[start...])
        if pending.count > maximumMessageBytes {
            outputs.append(.oversized(bytes: pending.count))
            pending = []
        }
        return outputs
    }

    /// Bytes of a message still incomplete.
    var pendingCount: Int { pending.count }
}
