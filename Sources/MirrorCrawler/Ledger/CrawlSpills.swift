import MirrorCore
import MirrorStore

/// Where a crawl keeps what it records of each URL instead of memory (issue #27): the URLs'
/// texts (``URLRegistry``), their local paths, the documents to rewrite with their prepared
/// rewrites, and the manifest's entries (``MirrorStore/ManifestRecords``, SQLite). All of them
/// live in the staging snapshot's `_mirror/tmp/` and are removed before it is published;
/// memory keeps a few tens of bytes per URL to find them.
struct CrawlSpills: Sendable {
    let urls: SpillFile
    let paths: SpillFile
    let documents: SpillFile
    let manifest: ManifestRecords

    /// The scratch files of a crawl, in `_mirror/tmp/` of `fileSystem` (which must exist).
    /// - Throws: ``MirrorStore/StoreError`` when they cannot be created.
    static func create(in fileSystem: SecureFileSystem) throws(StoreError) -> CrawlSpills {
        CrawlSpills(
            // The frontier takes URLs in the order they were found, the rewrite workers take runs
            // of documents in the order they were recorded; local paths are asked for in any order.
            urls: try SpillFile.create(in: fileSystem, at: "_mirror/tmp/urls.spill", reads: .runs),
            paths: try SpillFile.create(in: fileSystem, at: "_mirror/tmp/paths.spill", reads: .scattered),
            documents: try SpillFile.create(in: fileSystem, at: "_mirror/tmp/documents.spill", reads: .runs),
            manifest: try ManifestRecords.create(in: fileSystem, at: "_mirror/tmp/manifest.sqlite"))
    }

    /// Everything in memory (tests).
    /// - Throws: ``MirrorStore/StoreError`` only when memory is exhausted.
    static func inMemory() throws(StoreError) -> CrawlSpills {
        CrawlSpills(urls: .inMemory(), paths: .inMemory(), documents: .inMemory(), manifest: try ManifestRecords.inMemory())
    }

    /// The first failed write or read of a spill file, if any (the run then ends with it).
    var failure: StoreError? { urls.failure ?? paths.failure ?? documents.failure }

    /// Writes out what the spill files still buffer (before the rewrite phase reads them).
    func flush() {
        urls.flush()
        paths.flush()
        documents.flush()
    }

    /// Deletes the files.
    func remove() {
        urls.remove()
        paths.remove()
        documents.remove()
        manifest.remove()
    }
}
