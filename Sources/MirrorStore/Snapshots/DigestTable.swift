import MirrorCore

/// The ``OriginalsPack``'s index in memory: per original, its SHA-256 (``DigestKey``), offset
/// and length, in ``MirrorCore/ChunkedArray``s, found through an open-addressing table of
/// 32-bit slots at most 3/4 full: about 53 bytes an original, where a dictionary of hex
/// strings took about 150 (issue #27: a refresh of 100,000 pages holds two of these).
/// Entries stay in the order they were added, which is the pack's order.
struct DigestTable: Sendable {
    private(set) var keys = ChunkedArray<DigestKey>()
    private(set) var offsets = ChunkedArray<Int64>()
    private(set) var lengths = ChunkedArray<Int64>()
    private var slots = [UInt32](repeating: 0, count: 64)

    var count: Int { keys.count }

    /// The place of the original with this digest, if the table has it.
    func find(_ key: DigestKey) -> (offset: Int64, length: Int)? {
        index(of: key).map { (offsets[$0], Int(lengths[$0])) }
    }

    /// Adds an original; a digest already there is left as it is.
    /// - Returns: false when the digest was there.
    @discardableResult
    mutating func insert(_ key: DigestKey, offset: Int64, length: Int) -> Bool {
        guard index(of: key) == nil else { return false }
        keys.append(key)
        offsets.append(offset)
        lengths.append(Int64(length))
        if keys.count * 4 > slots.count * 3 {
            slots = [UInt32](repeating: 0, count: slots.count * 2)
            for position in keys.indices { place(position) }
        } else {
            place(keys.count - 1)
        }
        return true
    }

    /// The position (in the order of addition) of the original with this digest.
    func position(of key: DigestKey) -> Int? { index(of: key) }

    private func index(of key: DigestKey) -> Int? {
        let mask = slots.count - 1
        var slot = key.slotHash & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot] - 1)
            if keys[position] == key { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func place(_ position: Int) {
        let mask = slots.count - 1
        var slot = keys[position].slotHash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(position + 1)
    }
}
