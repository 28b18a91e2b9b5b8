import Foundation
import MirrorCore
import MirrorHTTP
import MirrorStore

/// The snapshot a run compares against: its manifest (validators, references) and its files
/// (hard-linked into the new snapshot when unchanged).
///
/// The manifest is not loaded: a ``MirrorStore/ManifestIndex`` knows where each entry's line
/// is, and an entry is read when asked for, so a refresh of 100,000 URLs holds about 40 bytes
/// a URL of it (issue #27).
struct PreviousSnapshot: Sendable {
    let id: String
    let fileSystem: SecureFileSystem
    let manifest: ManifestIndex
    /// The originals of its documents, when it keeps them in a pack (snapshots made before the
    /// pack keep them as `_mirror/raw/<sha256>` files, which are still read).
    let originals: OriginalsPack?
    /// Render mode's record of its pages (`_mirror/render.json`), when it rendered any.
    var renders: RenderFile? = nil {
        didSet { renderedPages = Dictionary((renders?.pages ?? []).map { ($0.url, $0) }, uniquingKeysWith: { _, last in last }) }
    }
    /// ``renders``' pages by URL.
    private(set) var renderedPages: [String: RenderRecord] = [:]

    /// The current snapshot of a site, or nil when there is none (or it cannot be read:
    /// the run is then a full one).
    static func load(from store: SnapshotStore) -> PreviousSnapshot? {
        guard let id = store.currentID, let path = store.currentPath,
              let fileSystem = try? SecureFileSystem(root: path, create: false),
              let manifest = (try? ManifestIndex.open(in: fileSystem, at: "_mirror/manifest.tsv")) ?? nil
        else { return nil }
        var snapshot = PreviousSnapshot(id: id, fileSystem: fileSystem, manifest: manifest, originals: OriginalsPack.open(in: fileSystem))
        snapshot.renders = RenderLedger.load(from: fileSystem)
        return snapshot
    }

    /// The previous entry for `url` when it can be revalidated: it was stored with a 2xx and has
    /// a validator (and, for a document, the hash its original is kept under). Whether its file
    /// is still on disk shows when it is linked (``Crawler``'s `reuse`): if not, the URL is
    /// fetched again without validators.
    func revalidatable(_ url: WebURL) -> ManifestEntry? {
        guard let entry = manifest.entry(forKey: url.string), let status = entry.status, (200...299).contains(status),
              entry.localPath != nil, entry.etag != nil || entry.lastModified != nil
        else { return nil }
        let isDocument = DocumentType(mediaType: entry.contentType.map(HTTPResponse.mediaType(of:)), path: url.path) != .other
        if isDocument, entry.sha256 == nil { return nil }
        return entry
    }

    /// The fingerprint (``MirrorCore/WebURL/fingerprint(of:)``) of the local path a URL had in
    /// this snapshot, its own or its redirect's target's; 0 when it had none.
    func pathHash(forKey key: String) -> UInt64 {
        manifest.pathHash(forKey: key)
    }

    /// The previous entry of a URL by its normalised text.
    func entry(forKey key: String) -> ManifestEntry? {
        manifest.entry(forKey: key)
    }

    /// How many URLs that this snapshot had stored (2xx with a file) the new run no longer
    /// has: absent from its manifest, or present without a status (a reserved path).
    /// Counted by the URLs' fingerprints (``MirrorCore/WebURL/fingerprint(of:)``), the crawl's
    /// identity for a URL, so that nothing is read from the manifest file.
    /// - Parameter hasStatus: whether the new run's entry for a URL, by its fingerprint, has a
    ///   status.
    func removedCount(hasStatus: (UInt64) -> Bool) -> Int {
        var removed = 0
        manifest.forEachFingerprint(kinds: .stored) { key in
            if !hasStatus(key) { removed += 1 }
        }
        return removed
    }
}

extension PreviousSnapshot {
    /// The entries the last run carried over without revalidating them (``MirrorStore/ManifestEntry/stale``),
    /// as frontier items with the depth and kind they had, for a crawl to revalidate first; those
    /// the scope no longer fetches are left out.
    func staleItems(in scope: CrawlScope) -> [FrontierItem] {
        var items: [FrontierItem] = []
        // What cannot be read is not revalidated first; the crawl still reaches it by its links.
        try? manifest.forEach(kinds: .stale) { entry in
            guard let stale = entry.stale, let url = WebURL(entry.url),
                  scope.classify(url, isRequisite: stale.isRequisite, depth: stale.depth).isFetched
            else { return }
            items.append(FrontierItem(url: url, depth: stale.depth, isRequisite: stale.isRequisite, referrer: nil))
        }
        // The file is sorted by URL already.
        return items
    }
}
