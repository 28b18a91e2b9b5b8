import MirrorCore

/// The ``OriginalsPack``'s index in memory: per original, the first 128 bits of its SHA-256
/// (``DigestKey/prefix``), offset and length, in ``MirrorCore/ChunkedArray``s, found through an
/// open-addressing table of 32-bit slots at most 3/4 full: about 36 bytes an original, where
/// whole digests took about 53 and a dictionary of hex strings about 150 (issue #27: a refresh
/// of 100,000 pages holds two of these). The whole digests are in the pack's index file, which
/// is written as originals are added. Two different documents share a 128-bit prefix with a
/// probability of about n²/2¹²⁹, and a pair that does takes about 2⁶⁴ SHA-256 computations to
/// find. Entries stay in the order they were added, which is the pack's order.
struct DigestTable: Sendable {
    private(set) var prefixes = ChunkedArray<DigestKey.Prefix>()
    private(set) var offsets = ChunkedArray<Int64>()
    private(set) var lengths = ChunkedArray<UInt32>()
    private var slots = [UInt32](repeating: 0, count: 64)

    /// The longest original an entry can describe.
    static let maximumLength = Int(UInt32.max)

    var count: Int { prefixes.count }

    /// The place of the original with this digest, if the table has it.
    func find(_ key: DigestKey) -> (offset: Int64, length: Int)? {
        index(of: key.prefix).map { (offsets[$0], Int(lengths[$0])) }
    }

    /// Adds an original; a digest already there is left as it is.
    /// - Parameter length: at most ``maximumLength``.
    /// - Returns: false when the digest was there.
    @discardableResult
    mutating func insert(_ key: DigestKey, offset: Int64, length: Int) -> Bool {
        precondition(length >= 0 && length <= Self.maximumLength, "the pack checks lengths first")
        guard index(of: key.prefix) == nil else { return false }
        prefixes.append(key.prefix)
        offsets.append(offset)
        lengths.append(UInt32(length))
        if prefixes.count * 4 > slots.count * 3 {
            slots = [UInt32](repeating: 0, count: slots.count * 2)
            for position in prefixes.indices { place(position) }
        } else {
            place(prefixes.count - 1)
        }
        return true
    }

    /// The position (in the order of addition) of the original with this digest.
    func position(of key: DigestKey) -> Int? { index(of: key.prefix) }

    private func index(of prefix: DigestKey.Prefix) -> Int? {
        let mask = slots.count - 1
        var slot = prefix.slotHash & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot] - 1)
            if prefixes[position] == prefix { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func place(_ position: Int) {
        let mask = slots.count - 1
        var slot = prefixes[position].slotHash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(position + 1)
    }
}
