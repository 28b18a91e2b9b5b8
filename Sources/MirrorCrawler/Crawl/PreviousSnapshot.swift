import Foundation
import MirrorCore
import MirrorHTTP
import MirrorStore

/// The snapshot a run compares against: its manifest (validators, references) and its files
/// (hard-linked into the new snapshot when unchanged).
struct PreviousSnapshot: Sendable {
    let id: String
    let fileSystem: SecureFileSystem
    let manifest: Manifest
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
              let manifest = (try? Manifest.loadIfPresent(from: fileSystem, at: "_mirror/manifest.tsv")) ?? nil
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

    /// URL → local path in the previous snapshot, as its documents were rewritten with: stored
    /// and reserved paths, and redirects to them.
    func localPaths() -> [String: String] {
        var paths: [String: String] = [:]
        for entry in manifest { if let path = entry.localPath { paths[entry.url] = path } }
        for entry in manifest where entry.localPath == nil && entry.status.map({ (300...399).contains($0) }) == true {
            if let target = entry.references.first, let path = paths[target] { paths[entry.url] = path }
        }
        return paths
    }

    /// URLs stored in the previous snapshot that the new one no longer holds.
    func removedCount(comparedWith current: Manifest) -> Int {
        manifest.filter { entry in
            guard let status = entry.status, (200...299).contains(status), entry.localPath != nil else { return false }
            guard let now = current.entry(forKey: entry.url) else { return true }
            return now.status == nil
        }.count
    }
}

extension PreviousSnapshot {
    /// The entries the last run carried over without revalidating them (``MirrorStore/ManifestEntry/stale``),
    /// as frontier items with the depth and kind they had, for a crawl to revalidate first; those
    /// the scope no longer fetches are left out.
    func staleItems(in scope: CrawlScope) -> [FrontierItem] {
        manifest.compactMap { entry -> FrontierItem? in
            guard let stale = entry.stale, let url = WebURL(entry.url),
                  scope.classify(url, isRequisite: stale.isRequisite, depth: stale.depth).isFetched
            else { return nil }
            return FrontierItem(url: url, depth: stale.depth, isRequisite: stale.isRequisite, referrer: nil)
        }.sorted { $0.url.string < $1.url.string }
    }
}
