import MirrorCore
import MirrorStore

/// URL → local path for every URL a crawl stored or reserved a path for, and every redirect
/// that leads to one: what the rewrite asks for each reference. Built from the crawl's records
/// (``CrawlState/localPaths()``) without a table of strings: the path texts stay in their
/// spill file, read when asked for. Safe to use from several threads at once.
struct LocalPaths: Sendable {
    let registry: URLRegistry
    /// By id: the path's place in `paths` (offset << 16 | length), 0 for none.
    let pathRefs: ChunkedArray<UInt64>
    /// By id: a fingerprint of the path (``MirrorStore/ManifestIndex/pathHash(_:)`` of its
    /// text), 0 for none; empty when the crawl kept none (a first mirror): the fingerprint is
    /// then computed from the path.
    let pathHashes: ChunkedArray<UInt64>
    /// Redirect sources → their targets.
    let aliases: [UInt32: UInt32]
    let paths: SpillFile

    /// The local path of a URL by its normalised text, without fragment.
    func path(ofKey text: String) -> String? {
        registry.id(forKey: text).flatMap(path(of:))
    }

    /// The local path of a URL.
    func path(of url: WebURL) -> String? {
        registry.id(of: url).flatMap(path(of:))
    }

    /// The local path of an id: its own, or the one its redirects lead to.
    func path(of id: UInt32) -> String? {
        guard let target = resolved(id) else { return nil }
        let ref = pathRefs[Int(target)]
        return try? paths.readString(at: Int64(ref >> 16), count: Int(ref & 0xFFFF))
    }

    /// The fingerprint of the local path of a URL by its text (0 when it has none): comparing
    /// two of them tells whether a link is written the same, without reading either path.
    func pathHash(ofKey text: String) -> UInt64 {
        registry.id(forKey: text).map(pathHash(of:)) ?? 0
    }

    /// The fingerprint of the local path of an id (its own or its redirect's), 0 for none.
    func pathHash(of id: UInt32) -> UInt64 {
        guard let target = resolved(id) else { return 0 }
        if Int(target) < pathHashes.count { return pathHashes[Int(target)] }
        return path(of: target).map(ManifestIndex.pathHash) ?? 0
    }

    /// Whether any link is written differently than in the snapshot `previous` describes
    /// (``MirrorStore/ManifestIndex/forEachFingerprint(_:)``): a URL whose local path (its own
    /// or its redirect's) is not the same, a URL that had one and has none, or one that has one
    /// now and had no entry. When none is, a document that did not change links exactly as
    /// before, and its rewritten copy can be kept without looking at its links.
    func anyMoved(since previous: ManifestIndex) -> Bool {
        var moved = false
        var matchedWithPath = 0
        previous.forEachFingerprint { key, previousPath in
            guard !moved else { return }
            let current = registry.id(fingerprint: key).map(pathHash(of:)) ?? 0
            if current != previousPath { moved = true }
            if current != 0 { matchedWithPath += 1 }
        }
        if moved { return true }
        var withPath = 0
        for id in 0..<registry.count where pathHash(of: UInt32(id)) != 0 { withPath += 1 }
        return withPath != matchedWithPath
    }

    /// The id whose path `id` uses: itself when it has one, else the end of its redirects
    /// (at most 20 hops).
    private func resolved(_ id: UInt32) -> UInt32? {
        var current = id
        var hops = 0
        while Int(current) >= pathRefs.count || pathRefs[Int(current)] == 0 {
            guard let next = aliases[current], hops < 20 else { return nil }
            current = next
            hops += 1
        }
        return current
    }
}
