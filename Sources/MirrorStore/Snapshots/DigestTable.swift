import MirrorCore

/// The ``OriginalsPack``'s index in memory: per original, a 64-bit fingerprint of its SHA-256
/// and its place in the pack, in ``MirrorCore/ChunkedArray``s, found through an open-addressing
/// table of 32-bit slots at most 3/4 full. Originals lie in the pack one after the other in the
/// table's order, so a place is a length, and the offset of every 64th original
/// (``MirrorCore/RecordPlaces``). About 17–23 bytes an original, where a 128-bit prefix and an
/// offset took 33–39, whole digests about 53 and a dictionary of hex strings about 150 (issue
/// #27: a refresh of 100,000 pages holds two of these). The whole digests are in the pack's
/// index file, which is written as originals are added.
///
/// The fingerprint is a SipHash of all 256 bits with a seed drawn at random for each process
/// (Swift's `Hasher`), as the crawl's URL fingerprints are (``DigestKey/fingerprint``): two
/// different documents of one run share one with a probability of about n²/2⁶⁵ (one in 3.7
/// billion for 100,000 originals), and a site cannot choose documents that do, because it
/// cannot know the seed. Fingerprints are never stored.
struct DigestTable: Sendable {
    /// By position (the order of addition, which is the pack's order).
    private var fingerprints = ChunkedArray<UInt64>()
    private var places = RecordPlaces<UInt32>()
    private var slots = [UInt32](repeating: 0, count: 64)

    /// The longest original an entry can describe.
    static let maximumLength = Int(UInt32.max)

    var count: Int { fingerprints.count }

    /// The place of the original with this digest, if the table has it.
    func find(_ key: DigestKey) -> (offset: Int64, length: Int)? {
        position(of: key).map { places.place(of: $0) }
    }

    /// The place of the original at `position`.
    func place(at position: Int) -> (offset: Int64, length: Int) { places.place(of: position) }

    /// The length of the original at `position` (no offset computed).
    func length(at position: Int) -> Int { places.length(of: position) }

    /// Adds an original; a digest already there is left as it is.
    /// - Parameter length: at most ``maximumLength``.
    /// - Returns: false when the digest was there.
    @discardableResult
    mutating func insert(_ key: DigestKey, offset: Int64, length: Int) -> Bool {
        precondition(length >= 0 && length <= Self.maximumLength, "the pack checks lengths first")
        let fingerprint = key.fingerprint
        guard position(of: fingerprint) == nil else { return false }
        fingerprints.append(fingerprint)
        places.append(offset: offset, length: length)
        if count * 4 > slots.count * 3 {
            slots = [UInt32](repeating: 0, count: slots.count * 2)
            for position in fingerprints.indices { place(position) }
        } else {
            place(count - 1)
        }
        return true
    }

    /// The position (in the order of addition) of the original with this digest.
    func position(of key: DigestKey) -> Int? { position(of: key.fingerprint) }

    /// Whether the original at `position` has this digest (as far as its fingerprint tells).
    func matches(_ key: DigestKey, at position: Int) -> Bool { fingerprints[position] == key.fingerprint }

    private func position(of fingerprint: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Self.slot(of: fingerprint) & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot] - 1)
            if fingerprints[position] == fingerprint { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func place(_ position: Int) {
        let mask = slots.count - 1
        var slot = Self.slot(of: fingerprints[position]) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(position + 1)
    }

    private static func slot(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: fingerprint ^ (fingerprint >> 32))
    }
}
