/// Where numbered records of one file are (0, 1, 2 … in the order they were added), in a few
/// bytes each, for the per-URL and per-document tables of issue #27: records are mostly appended
/// one right after the other, so memory keeps each one's length, and the offset of every
/// ``blockSize``-th; a record's offset is its block's plus the lengths before it. A record that
/// does not follow the one before it in its block, or whose length does not fit `Length` (its
/// largest value is reserved), keeps its place aside, in a dictionary.
///
/// Used by the crawl's URL registry (URL texts in their spill file, 16-bit lengths) and by the
/// originals pack's table (documents in the pack, 32-bit lengths). A value type.
@frozen
public struct RecordPlaces<Length: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable {
    /// Records per stored offset.
    @inlinable public static var blockSize: Int { 64 }
    /// The length that means "the place is aside".
    @inlinable static var aside: Length { Length.max }

    @usableFromInline var lengths = ChunkedArray<Length>()
    @usableFromInline var blockStarts: [Int64] = []
    @usableFromInline var placesAside: [Int: Place] = [:]
    @usableFromInline var lastEnd: Int64 = 0

    /// A record's offset and length.
    public typealias Place = (offset: Int64, length: Int)

    @inlinable public init() {}

    /// The end of the last record added (0 before any).
    @inlinable public var end: Int64 { lastEnd }

    /// How many records there are.
    @inlinable public var count: Int { lengths.count }

    /// Adds the next record's place.
    @inlinable public mutating func append(offset: Int64, length: Int) {
        let index = lengths.count
        let startsBlock = index % Self.blockSize == 0
        if startsBlock { blockStarts.append(offset) }
        if startsBlock || offset == lastEnd, length >= 0, length < Int(Self.aside) {
            lengths.append(Length(length))
        } else {
            lengths.append(Self.aside)
            placesAside[index] = (offset, length)
        }
        lastEnd = offset + Int64(length)
    }

    /// The length of record `index`.
    @inlinable public func length(of index: Int) -> Int {
        let length = lengths[index]
        return length == Self.aside ? placesAside[index]?.length ?? 0 : Int(length)
    }

    /// Where record `index` is: after the records before it in its block, unless it has a
    /// place of its own.
    @inlinable public func place(of index: Int) -> Place {
        let length = lengths[index]
        if length == Self.aside { return placesAside[index] ?? (0, 0) }
        let first = index - index % Self.blockSize
        var offset = blockStarts[first / Self.blockSize]
        for earlier in first..<index {
            let earlierLength = lengths[earlier]
            if earlierLength == Self.aside {
                let place = placesAside[earlier] ?? (0, 0)
                offset = place.offset + Int64(place.length)
            } else {
                offset += Int64(earlierLength)
            }
        }
        return (offset, Int(length))
    }

    /// The bytes the lengths and block offsets take (the places aside not counted: a few).
    @inlinable public var storageBytes: Int { lengths.storageBytes + blockStarts.count * 8 }
}
