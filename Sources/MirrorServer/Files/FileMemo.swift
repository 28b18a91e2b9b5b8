/// The files a ``Responder`` found during one epoch (one event-loop wake-up), by raw request
/// path, so that the requests handled together for the same path share one confined lookup.
///
/// Each entry holds the open file (its descriptor stays open while remembered) and the content
/// type chosen for it. A remembered file keeps the bytes of its first small read
/// (``OpenFile/keepsContents``), so later responses copy them instead of reading again. At
/// most ``capacity`` files are remembered; the memo is emptied at every epoch.
struct FileMemo {
    /// A remembered file.
    struct Entry {
        /// The open file.
        let file: OpenFile
        /// Its `Content-Type`.
        let contentType: String
    }

    /// The most files remembered at once (each holds a descriptor).
    static let capacity = 64

    private var entries: [String: Entry] = [:]

    /// The entry remembered for a raw request path.
    subscript(rawPath: String) -> Entry? {
        entries.isEmpty ? nil : entries[rawPath]
    }

    /// Remembers `entry` for `rawPath`, unless the memo is full.
    /// - Parameters:
    ///   - entry: the file found and its type.
    ///   - rawPath: the request's raw path, as the parser gave it.
    mutating func remember(_ entry: Entry, for rawPath: String) {
        guard entries.count < Self.capacity else { return }
        entry.file.keepsContents = true
        entries[rawPath] = entry
    }

    /// Forgets every entry (closing descriptors no response still holds).
    mutating func removeAll() {
        if !entries.isEmpty { entries.removeAll(keepingCapacity: true) }
    }
}
