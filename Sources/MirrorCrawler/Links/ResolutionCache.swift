import Foundation
import MirrorCore

/// Remembers what reference values resolved to, by the folder they were resolved in.
///
/// The pages of a site repeat the same references (navigation, stylesheets, icons), and pages
/// in one folder resolve them to the same URLs. Resolving parses and normalises every time;
/// a lookup hashes one string. On the benchmark site about 60 % of the lookups hit, with at
/// most 4,096 entries (about 2 MiB). Shared by the crawl's tasks (a lock).
///
/// Memory stays bounded on any site: entries live in two generations of at most ``capacity``
/// each. When the newer one is full it becomes the older one (the older is dropped); an entry
/// found in the older generation moves back to the newer, so references in use stay.
final class ResolutionCache: @unchecked Sendable {
    /// A value as resolved in a folder (two strings, not one made by joining them: no copy).
    private struct Key: Hashable {
        let folder: String
        let value: String
    }

    private let lock = NSLock()
    private var targets: [Key: LinkTarget?] = [:]
    private var older: [Key: LinkTarget?] = [:]
    let capacity: Int

    init(capacity: Int = 2_048) {
        self.capacity = capacity
    }

    /// The folder part of the key of references resolved against `base`: its text up to the
    /// last `/` of its path (query and fragment left out). Only values that start with neither
    /// `?` nor `#` depend on nothing else of the base (RFC 3986 §5.2.2).
    static func folderKey(of base: WebURL) -> String {
        let text = base.string.utf8
        var end = text.endIndex
        if let stop = text.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { end = stop }
        if let slash = text[..<end].lastIndex(of: UInt8(ascii: "/")) { end = text.index(after: slash) }
        return String(base.string[..<end])
    }

    /// The target of `value` resolved against `base` (whose ``folderKey(of:)`` is `folder`),
    /// from the cache or computed by ``LinkPlanner/target(of:baseURL:)``.
    func target(of value: String, baseURL base: WebURL, folder: String) -> LinkTarget? {
        guard let first = value.utf8.first, first != UInt8(ascii: "?"), first != UInt8(ascii: "#"),
              !HTMLSpace.isSpace(first), value.utf8.count <= 256
        else { return LinkPlanner.target(of: value, baseURL: base) }
        let key = Key(folder: folder, value: value)
        lock.lock()
        if let known = targets[key] {
            lock.unlock()
            return known
        }
        if let known = older[key] {
            insert(known, for: key)
            lock.unlock()
            return known
        }
        lock.unlock()
        let target = LinkPlanner.target(of: value, baseURL: base)
        lock.lock()
        insert(target, for: key)
        lock.unlock()
        return target
    }

    /// Adds to the newer generation, turning it into the older one first when it is full.
    /// Called with `lock` held.
    private func insert(_ target: LinkTarget?, for key: Key) {
        if targets.count >= capacity {
            older = targets
            targets = [:]
            targets.reserveCapacity(capacity)
        }
        targets[key] = target
    }
}

/// HTML's ASCII whitespace, as bytes.
enum HTMLSpace {
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
