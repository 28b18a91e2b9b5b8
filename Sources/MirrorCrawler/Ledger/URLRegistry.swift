import MirrorCore
import MirrorStore

/// Every URL a crawl knows, each under a number (its id: 0, 1, 2 … in the order first seen),
/// in a few bytes of memory apiece: the URLs' texts live in a ``MirrorStore/SpillFile``, and
/// memory keeps a 64-bit fingerprint per URL (``MirrorCore/WebURL/fingerprint``), the length
/// of its text, and an open-addressing table from fingerprint to id. The texts are appended in
/// the order of the ids, so a text's offset is the offset of its block's first text (one word
/// per 64 ids) plus the lengths before it (``MirrorCore/RecordPlaces``). About 16–21 bytes a URL, whatever its
/// length (22–27 while each text's place took a word): the crawl's other per-URL state is kept
/// by id (``Frontier``, ``CrawlState``), so that memory stays flat from 2,000 to 100,000
/// pages (issue #27).
///
/// Two URLs are the same URL when their fingerprints are equal. A fingerprint is a 64-bit
/// SipHash with a seed drawn at random for each process, so two different URLs of one crawl
/// share one with a probability of about n²/2⁶⁵ (one in 35 million for a million URLs), and a
/// site cannot choose URLs that do. Heritrix deduplicates its frontier the same way
/// (`FPUriUniqFilter`, 64-bit fingerprints).
///
/// A value type whose text store is shared by its copies (texts are only ever appended, so a
/// copy that adds a URL does not disturb another's: a text that does not follow the one before
/// it in the file keeps its own place). Reading is safe from several threads while nobody adds.
struct URLRegistry: Sendable {
    /// Open addressing, linear probing: 0 is an empty slot, otherwise id + 1.
    private var slots: [UInt32]
    private var fingerprints = ChunkedArray<UInt64>()
    /// By id: where the text is in ``texts`` (its length, and one offset per 64 ids).
    private var textPlaces = RecordPlaces<UInt16>()
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
        textPlaces.append(offset: offset, length: text.utf8.count)
        // At most 3/4 full: short probe sequences, 5 to 11 bytes of slots a URL.
        if fingerprints.count * 4 > slots.count * 3 { grow() } else { place(id, fingerprint: fingerprint) }
        return (id, true)
    }

    /// The normalised text of a URL.
    func text(of id: UInt32) -> String {
        let (offset, length) = textPlaces.place(of: Int(id))
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

    /// Memory the tables take, in bytes (for tests and the documentation of the cost per URL):
    /// the slots the hash table has, not the array's capacity, which includes however much
    /// the allocator rounded the block up (a page or so, depending on whether glibc mapped it
    /// on its own, which its heap's history decides).
    var tableBytes: Int {
        slots.count * 4 + fingerprints.storageBytes + textPlaces.storageBytes
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
