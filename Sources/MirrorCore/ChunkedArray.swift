/// An array that grows a chunk of 4,096 elements at a time: for the columns a crawl keeps per
/// URL (issue #27). A plain array doubles its storage when it fills, so it holds up to twice
/// its elements, and while it grows the old and the new storage are both alive: three times
/// its elements at that moment, and the columns of a crawl all grow at once, as its URLs do.
/// Here memory is the elements plus at most one chunk, and growing copies nothing.
///
/// A value type (the chunks are copied on write, one at a time).
///
/// Inlinable, so that the modules using it get code for their element types (a generic call
/// across modules goes through the element type's metadata at run time, several times slower).
@frozen
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// Elements per chunk (a power of two).
    @inlinable public static var chunkSize: Int { 4096 }
    @inlinable static var shift: Int { 12 }

    @usableFromInline var chunks: [[Element]] = []
    @usableFromInline var storedCount: Int = 0
    /// The number of elements.
    @inlinable public var count: Int { storedCount }

    @inlinable public init() {}

    /// `count` copies of `value`.
    @inlinable public init(repeating value: Element, count: Int) {
        append(repeating: value, count: count)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public subscript(position: Int) -> Element {
        get { chunks[position >> Self.shift][position & (Self.chunkSize - 1)] }
        set { chunks[position >> Self.shift][position & (Self.chunkSize - 1)] = newValue }
    }

    /// Appends an element, starting a chunk when the last one is full.
    @inlinable public mutating func append(_ element: Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        storedCount += 1
    }

    /// Appends `count` copies of `value`, a chunk at a time.
    @inlinable public mutating func append(repeating value: Element, count: Int) {
        var left = count
        while left > 0 {
            let used = storedCount & (Self.chunkSize - 1)
            if used == 0 {
                let whole = Swift.min(left, Self.chunkSize)
                var chunk = [Element](repeating: value, count: whole)
                chunk.reserveCapacity(Self.chunkSize)
                chunks.append(chunk)
                storedCount += whole
                left -= whole
            } else {
                let more = Swift.min(left, Self.chunkSize - used)
                chunks[chunks.count - 1].append(contentsOf: repeatElement(value, count: more))
                storedCount += more
                left -= more
            }
        }
    }

    /// The bytes the elements' storage takes (whole chunks).
    @inlinable public var storageBytes: Int { chunks.count * Self.chunkSize * MemoryLayout<Element>.stride }
}

extension ChunkedArray: Sendable where Element: Sendable {}
