/// A first-in, first-out queue with O(1) append and removal.
///
/// Elements live in chunks of ``chunkSize``: appends fill the last chunk, removals advance a
/// head index in the first, which is dropped once read. Memory is what is queued plus at most
/// two partly used chunks, and growing copies nothing: a single array doubled its storage when
/// it filled (up to twice what was queued, three times while the old and new storage were both
/// alive), and a crawl's queue holds tens of thousands of URLs at once (issue #27).
struct FIFOQueue<Element: Sendable>: Sendable {
    /// Elements per chunk.
    static var chunkSize: Int { 1_024 }

    private var chunks: [[Element]] = []
    /// The next element to read, in `chunks[0]`.
    private var head = 0
    private(set) var count = 0

    /// Whether nothing is queued.
    var isEmpty: Bool { count == 0 }

    /// Adds an element at the end.
    mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Removes and returns the first element, or nil when the queue is empty.
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = chunks[0][head]
        head += 1
        count -= 1
        if count == 0 {
            // Keep one chunk for the next appends.
            chunks.removeSubrange(1...)
            chunks[0].removeAll(keepingCapacity: true)
            head = 0
        } else if head == Self.chunkSize {
            chunks.removeFirst()
            head = 0
        }
        return element
    }
}
