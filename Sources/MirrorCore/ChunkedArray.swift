/// An array that grows a chunk of 4,096 elements at a time: for the columns a crawl keeps per
/// URL (issue #27). A plain array doubles its storage when it fills, so it holds up to twice
/// its elements, and while it grows the old and the new storage are both alive: three times
/// its elements at that moment, and the columns of a crawl all grow at once, as its URLs do.
/// Here memory is the elements plus at most one chunk, and growing copies nothing.
///
/// A value type (the chunks are copied on write, one at a time).
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// Elements per chunk (a power of two).
    public static var chunkSize: Int { 4096 }
    private static var shift: Int { 12 }

    private var chunks: [[Element]] = []
    public private(set) var count = 0

    public init() {}

    /// `count` copies of `value`.
    public init(repeating value: Element, count: Int) {
        for _ in 0..<count { append(value) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Element {
        get { chunks[position >> Self.shift][position & (Self.chunkSize - 1)] }
        set { chunks[position >> Self.shift][position & (Self.chunkSize - 1)] = newValue }
    }

    /// Appends an element, starting a chunk when the last one is full.
    public mutating func append(_ element: Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Appends `count` copies of `value`.
    public mutating func append(repeating value: Element, count: Int) {
        for _ in 0..<count { append(value) }
    }

    /// The bytes the elements' storage takes (whole chunks).
    public var storageBytes: Int { chunks.count * Self.chunkSize * MemoryLayout<Element>.stride }
}

extension ChunkedArray: Sendable where Element: Sendable {}
