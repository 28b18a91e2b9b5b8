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
    /// The folder a document's references resolve in (``folderKey(of:)``), hashed once per
    /// document instead of once per reference.
    struct Folder {
        let text: String
        let hash: Int

        init(of base: WebURL) {
            text = ResolutionCache.folderKey(of: base)
            hash = text.hashValue
        }
    }

    /// A value as resolved in a folder (two strings, not one made by joining them: no copy). The
    /// value is a slice of the reference's own text: the part before a fragment needs no copy.
    /// Its hash is computed once: a value seen for the first time is looked up in both
    /// generations and then inserted, and hashing its text each time was a third of the
    /// cache's cost on pages that link to thousands of distinct URLs.
    private struct Key: Hashable {
        let folder: String
        let folderHash: Int
        let value: Substring
        let hash: Int

        init(folder: Folder, value: Substring) {
            self.folder = folder.text
            folderHash = folder.hash
            self.value = value
            var hasher = Hasher()
            hasher.combine(folder.hash)
            hasher.combine(value)
            hash = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.folderHash == b.folderHash && a.value == b.value && a.folder == b.folder
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
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

    /// What a reference resolved to: its target without fragment, and the fragment apart.
    struct Resolution: Equatable {
        /// ``LinkTarget/url(_:writtenAbsolute:)`` holds the URL without its fragment.
        let target: LinkTarget
        /// The normalised fragment, or nil.
        let fragment: String?

        /// Splits what ``LinkPlanner/target(of:baseURL:)`` returned.
        init?(_ target: LinkTarget?) {
            switch target {
            case nil: return nil
            case .invalid: self.init(target: .invalid, fragment: nil)
            case .url(let url, let writtenAbsolute):
                self.init(target: .url(url.withoutFragment, writtenAbsolute: writtenAbsolute), fragment: url.fragment)
            }
        }

        init(target: LinkTarget, fragment: String?) {
            self.target = target
            self.fragment = fragment
        }
    }

    /// `value` resolved against `base` (whose folder is `folder`), the same as
    /// ``LinkPlanner/target(of:baseURL:)`` gives, from the cache when it can.
    ///
    /// A value with a fragment (`library/os.html#os.getcwd`) is looked up without it, so that
    /// the many anchors of one page share one entry; the fragment is normalised on its own.
    /// That holds for a value without spaces or control characters (resolution removes or
    /// rejects those anywhere in the value, so splitting first could differ) whose result cannot
    /// reach the URL length limit.
    func resolve(_ value: String, baseURL base: WebURL, folder: Folder) -> Resolution? {
        let bytes = value.utf8
        guard let first = bytes.first, first != UInt8(ascii: "?"), first != UInt8(ascii: "#"),
              !HTMLSpace.isSpace(first), bytes.count <= 256
        else { return Resolution(LinkPlanner.target(of: value, baseURL: base)) }
        guard let hash = bytes.firstIndex(of: UInt8(ascii: "#")) else {
            return Resolution(cached(value[...], base: base, folder: folder))
        }
        guard base.string.utf8.count + bytes.count < WebURL.defaultMaximumLength,
              !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F })
        else { return Resolution(LinkPlanner.target(of: value, baseURL: base)) }
        guard let resolved = Resolution(cached(value[..<hash], base: base, folder: folder)) else { return nil }
        guard case .url = resolved.target else { return resolved }
        return Resolution(target: resolved.target, fragment: WebURL.normalizedFragment(value[bytes.index(after: hash)...]))
    }

    /// ``LinkPlanner/target(of:baseURL:)`` of `value`, through the cache.
    private func cached(_ value: Substring, base: WebURL, folder: Folder) -> LinkTarget? {
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
        let target = LinkPlanner.target(of: String(value), baseURL: base)
        lock.lock()
        insert(target, for: key)
        lock.unlock()
        return target
    }

    /// The cached entries, taken out of the cache (which is then empty): for the caller to free.
    func removeAll() -> some Sendable {
        lock.lock()
        defer { lock.unlock() }
        let entries = (targets, older)
        targets = [:]
        older = [:]
        return entries
    }

    /// Entries in both generations (for tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return targets.count + older.count
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
