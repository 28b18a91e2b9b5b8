import Foundation
import MirrorRender

/// The GET responses render mode has fetched in this run, kept so that the 500 pages of an
/// application that all load `app.js`, `style.css` and the logo ask the origin for them once.
///
/// Bounded (``capacity`` bytes in all, ``largestEntry`` each; the oldest go first). Only 2xx
/// responses to GET, without `Cache-Control: no-store`, and not documents (a frame's document
/// is rendered with its page). Safe from any thread.
final class RenderCache: @unchecked Sendable {
    struct Entry: Sendable {
        var status: Int
        var headers: [HeaderField]
        var body: [UInt8]
        var sha256: String
        var etag: String?
        var lastModified: String?
    }

    let capacity: Int
    let largestEntry: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var bytes = 0
    private(set) var hits = 0

    init(capacity: Int = 64 << 20, largestEntry: Int = 4 << 20) {
        self.capacity = capacity
        self.largestEntry = largestEntry
    }

    func entry(for url: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        let found = entries[url]
        if found != nil { hits += 1 }
        return found
    }

    func insert(_ entry: Entry, for url: String) {
        guard entry.body.count <= largestEntry else { return }
        lock.lock()
        defer { lock.unlock() }
        guard entries[url] == nil else { return }
        entries[url] = entry
        order.append(url)
        bytes += entry.body.count
        while bytes > capacity, !order.isEmpty {
            let oldest = order.removeFirst()
            bytes -= entries.removeValue(forKey: oldest)?.body.count ?? 0
        }
    }
}
