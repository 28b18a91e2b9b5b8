import MirrorCore
import MirrorStore

/// Every URL a crawl knows, each under a number (its id: 0, 1, 2 … in the order first seen),
/// in a few bytes of memory apiece: the URLs' texts live in a ``MirrorStore/SpillFile``, and
/// memory keeps a 64-bit fingerprint per URL (``MirrorCore/WebURL/fingerprint``), the place of
/// its text (offset and length in one word; in ``MirrorCore/ChunkedArray``s), and an
/// open-addressing table from fingerprint to id. About 26 bytes a URL,
/// whatever its length: the crawl's other per-URL state is kept by id (``Frontier``,
/// ``CrawlState``), so that memory stays flat from 2,000 to 100,000 pages (issue #27).
///
/// Two URLs are the same URL when their fingerprints are equal. A fingerprint is a 64-bit
/// SipHash with a seed drawn at random for each process, so two different URLs of one crawl
/// share one with a probability of about n²/2⁶⁵ (one in 35 million for a million URLs), and a
/// site cannot choose URLs that do. Heritrix deduplicates its frontier the same way
/// (`FPUriUniqFilter`, 64-bit fingerprints).
///
/// A value type whose text store is shared by its copies (texts are only ever appended, so a
/// copy that adds a URL does not disturb another's). Reading is safe from several threads
/// while nobody adds.
struct URLRegistry: Sendable {
    /// Open addressing, linear probing: 0 is an empty slot, otherwise id + 1.
    private var slots: [UInt32]
    private var fingerprints = ChunkedArray<UInt64>()
    /// By id: the text's offset in ``texts`` (the high 40 bits) and length (the low 24), or
    /// ``TextPlace/outsized`` for one that does not fit, found in `outsizedTexts`.
    private var textPlaces = ChunkedArray<UInt64>()
    private var outsizedTexts: [UInt32: (offset: Int64, length: Int)] = [:]
    /// Where the texts are.
    let texts: SpillFile

    /// - Parameter texts: where URL texts go (a file in the staging snapshot for a crawl).
    init(texts: SpillFile = .inMemory()) {
        self.texts = texts
        slots = Array(repeating: 0, count: 1024)
    }

    /// How many URLs are known.
    var count: Int { fingerprints.count }

    /// The id of a URL (without fragment), if it is known.
    func id(of url: WebURL) -> UInt32? {
        id(fingerprint: url.fingerprint)
    }

    /// The id of a URL by its normalised text (a manifest's URL or reference), if it is known.
    func id(forKey text: String) -> UInt32? {
        id(fingerprint: WebURL.fingerprint(of: text))
    }

    /// The id of the URL with this fingerprint, if it is known.
    func id(fingerprint: UInt64) -> UInt32? {
        let mask = slots.count - 1
        var slot = Self.slot(of: fingerprint, mask: mask)
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if fingerprints[Int(entry - 1)] == fingerprint { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// The id of `url` (without fragment), which is added when it is new.
    /// - Returns: the id, and whether the URL was new.
    @discardableResult
    mutating func add(_ url: WebURL) -> (id: UInt32, isNew: Bool) {
        add(fingerprint: url.fingerprint, text: url.string)
    }

    /// The id of the URL whose normalised text is `text`, added when new.
    @discardableResult
    mutating func add(key text: String) -> (id: UInt32, isNew: Bool) {
        add(fingerprint: WebURL.fingerprint(of: text), text: text)
    }

    private mutating func add(fingerprint: UInt64, text: String) -> (id: UInt32, isNew: Bool) {
        if let known = id(fingerprint: fingerprint) { return (known, false) }
        let id = UInt32(fingerprints.count)
        fingerprints.append(fingerprint)
        let offset = texts.append(utf8: text)
        let length = text.utf8.count
        if let place = TextPlace.packed(offset: offset, length: length) {
            textPlaces.append(place)
        } else {
            textPlaces.append(TextPlace.outsized)
            outsizedTexts[id] = (offset, length)
        }
        // At most 3/4 full: short probe sequences, 5 to 11 bytes of slots a URL.
        if fingerprints.count * 4 > slots.count * 3 { grow() } else { place(id, fingerprint: fingerprint) }
        return (id, true)
    }

    /// The normalised text of a URL.
    func text(of id: UInt32) -> String {
        let place = textPlaces[Int(id)]
        let (offset, length) = place == TextPlace.outsized
            ? (outsizedTexts[id] ?? (0, 0)) : (Int64(place >> TextPlace.lengthBits), Int(place & TextPlace.lengthMask))
        // A spill that cannot be read back is a broken run: the owner learns of a failed write
        // through the spill's `failure`; a read failure here yields "" (no URL), never a crash.
        return (try? texts.readString(at: offset, count: length)) ?? ""
    }

    /// The URL of an id, parsed again from its text.
    func url(of id: UInt32) -> WebURL? {
        WebURL(text(of: id))
    }

    /// The fingerprint of an id.
    func fingerprint(of id: UInt32) -> UInt64 { fingerprints[Int(id)] }

    /// Memory the tables take, in bytes (for tests and the documentation of the cost per URL).
    var tableBytes: Int {
        slots.capacity * 4 + fingerprints.storageBytes + textPlaces.storageBytes
    }

    /// A text's place in one word.
    enum TextPlace {
        static let lengthBits: UInt64 = 24
        static let lengthMask: UInt64 = (1 << lengthBits) - 1
        /// The place of a text longer than 16 MiB or beyond the spill's first TiB.
        static let outsized = UInt64.max

        static func packed(offset: Int64, length: Int) -> UInt64? {
            guard offset >= 0, offset < 1 << (64 - lengthBits) - 1, length >= 0, UInt64(length) <= lengthMask else { return nil }
            return UInt64(offset) << lengthBits | UInt64(length)
        }
    }

    private static func slot(of fingerprint: UInt64, mask: Int) -> Int {
        // The low bits of SipHash are as good as any; mixing in the high ones costs nothing.
        Int(truncatingIfNeeded: fingerprint ^ (fingerprint >> 32)) & mask
    }

    private mutating func place(_ id: UInt32, fingerprint: UInt64) {
        let mask = slots.count - 1
        var slot = Self.slot(of: fingerprint, mask: mask)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = id + 1
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        for (index, fingerprint) in fingerprints.enumerated() {
            place(UInt32(index), fingerprint: fingerprint)
        }
    }
}
