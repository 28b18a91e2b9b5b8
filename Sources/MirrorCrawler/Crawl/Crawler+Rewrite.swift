import Foundation
import MirrorCore
import MirrorDocument
import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

extension Crawler {
    /// Rewrites every stored HTML and CSS document so that its references point at the local
    /// copies (relative links), or at the origin (absolute) when not mirrored. Runs one task per
    /// core; each reads its documents back from the crawl's spill, and each document is
    /// replaced atomically, and only if something changed.
    ///
    /// - Returns: how many documents were rewritten.
    func rewriteDocuments(
        state: CrawlState, staging: StagingSnapshot, originals: OriginalsPack, paths: LocalPaths, previous: PreviousSnapshot?
    ) async -> (rewritten: Int, failures: [(path: String, error: StoreError)]) {
        let documents = await state.documents
        // In an unchanged refresh no link moved: unchanged documents keep their rewritten copy
        // without a look at their links.
        let nothingMoved = previous.map { !paths.anyMoved(since: $0.manifest) } ?? false
        let workers = Processors.active
        let fileSystem = staging.fileSystem
        let directories = self.directories
        // A worker takes a run of documents at a time (``DocumentRuns``), in recorded order.
        let claims = WorkClaims(count: documents.runCount, batch: 1)
        return await withTaskGroup(of: (Int, [(path: String, error: StoreError)]).self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var count = 0
                    var failures: [(path: String, error: StoreError)] = []
                    var lookup = PathCache(paths: paths)
                    for run in claims.indices() {
                        var index = run * DocumentRuns.length
                        state.forEachDocument(inRun: run, of: documents, registry: paths.registry) { document in
                            defer { index += 1 }
                            guard let document else {
                                failures.append(("(document \(index))",
                                                 .io(operation: "read", path: "_mirror/tmp/documents.spill", errno: EIO)))
                                return
                            }
                            if let previous, Self.reuseRewritten(document, previous: previous, paths: paths, nothingMoved: nothingMoved,
                                                                 fileSystem: fileSystem, directories: directories) {
                                return
                            }
                            // The previous copy linked during the crawl is not this run's: written anew
                            // (never into the linked file, which is the previous snapshot's too).
                            if document.previousCopyLinked {
                                do throws(StoreError) {
                                    try fileSystem.unlinkFile(document.localPath)
                                } catch {
                                    failures.append((document.localPath, error))
                                    return
                                }
                            }
                            do {
                                if try DocumentPipeline.rewrite(document, fileSystem: fileSystem, directories: directories,
                                                                localPath: { lookup.path(ofKey: $0) }, originals: originals) {
                                    count += 1
                                }
                            } catch let error as StoreError {
                                failures.append((document.localPath, error))
                            } catch {
                                failures.append((document.localPath, .io(operation: "rewrite", path: document.localPath, errno: 0)))
                            }
                        }
                    }
                    return (count, failures)
                }
            }
            var total = 0
            var failures: [(path: String, error: StoreError)] = []
            for await (count, failed) in group {
                total += count
                failures += failed
            }
            return (total, failures)
        }
    }


    /// A rewrite worker's view of ``LocalPaths``: the paths a site's documents share
    /// (navigation, stylesheets) are read from the spill once, not once per document.
    ///
    /// Kept by URL id, not by text: a key is looked up in the registry first (one fingerprint
    /// and a probe), which answers at once for the URLs outside the scope, which the frontier
    /// refuses without registering them (most targets of a page that links out: four in five
    /// of the Debian Reference's distinct links leave the site), and an id hashes as one
    /// word. Keyed by text, each such target was hashed three times (a lookup, the registry's
    /// fingerprint, an insert): the rewrite phase of that manual took 8.0 ms (median of 8),
    /// 6.5 ms by id.
    struct PathCache {
        let paths: LocalPaths
        private var known: [UInt32: String?] = [:]

        /// The most paths a worker keeps. The shared ones are found again at once after the
        /// cache empties; 4,096 held 1.2 MB of strings per worker at the largest sites, all of
        /// it at the rewrite phase, when the crawl's per-URL state is largest too (issue #27).
        static let capacity = 1_024

        init(paths: LocalPaths) {
            self.paths = paths
        }

        /// The local path of a URL by its normalised text.
        mutating func path(ofKey key: String) -> String? {
            guard let id = paths.registry.id(forKey: key) else { return nil }
            if let hit = known[id] { return hit }
            let path = paths.path(of: id)
            // Bounded: a site with 100,000 URLs does not keep them all here.
            if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
            known[id] = path
            return path
        }
    }

    /// Links the previous snapshot's rewritten copy of an unchanged document, when every URL it
    /// refers to maps to the same local path (or to none) in both snapshots: rewriting it again
    /// would give the same bytes. Returns false when the document must be rewritten.
    /// - Parameter nothingMoved: no URL's local path differs between the snapshots
    ///   (``LocalPaths/anyMoved(since:)``); otherwise the document's references are read from
    ///   the previous manifest and compared one by one.
    static func reuseRewritten(
        _ document: CrawlState.Document, previous: PreviousSnapshot, paths: LocalPaths, nothingMoved: Bool,
        fileSystem: SecureFileSystem, directories: CreatedDirectories
    ) -> Bool {
        guard document.isUnchanged,
              previous.pathHash(forKey: document.url.string) == ManifestIndex.pathHash(document.localPath) else { return false }
        if !nothingMoved {
            guard let references = previous.entry(forKey: document.url.string)?.references else { return false }
            for reference in references {
                let url = reference.hasPrefix("+") ? String(reference.dropFirst()) : reference
                if previous.pathHash(forKey: url) != paths.pathHash(ofKey: url) { return false }
            }
        }
        // Linked during the crawl already (``Crawler/linkPrevious(_:url:previous:staging:originals:withRewrittenCopy:)``).
        if document.previousCopyLinked { return true }
        do {
            try directories.ensure(CreatedDirectories.parent(of: document.localPath), in: fileSystem)
            return try fileSystem.link(document.localPath, from: previous.fileSystem)
        } catch {
            return false
        }
    }

    /// The most placeholders one run writes: a page with 50,000 links beyond `--max-pages`
    /// would otherwise add 50,000 files. The other reserved paths stay absent (the manifest
    /// still lists them).
    static let maxPlaceholders = 10_000

    /// Writes a file at each reserved path (``CrawlState/reservePaths(mapper:)``): for a
    /// page, a ``NotMirroredPage`` that says why it is missing; for a requisite, an empty file.
    /// So every local link of the copy opens something, from disk as through `serve`.
    ///
    /// Each distinct placeholder is written once; the other paths with the same bytes are hard
    /// links to it (no new inode, no new data block to sync). Where a link cannot be made (a
    /// file system without hard links, a file at its most links), the file is written again.
    /// Nothing changes a snapshot's file in place (replacements are renamed over the name), so
    /// the shared file never changes under another name.
    /// - Returns: how many could not be written, and the first such error.
    /// - Throws: ``MirrorStore/StoreError/diskFull(path:)`` at once.
    func writePlaceholders(for reserved: [CrawlState.Reservation], in fileSystem: SecureFileSystem,
                           date: Date) throws(StoreError) -> (failed: Int, first: StoreError?) {
        var failed = 0
        var first: StoreError?
        var written: [[UInt8]: String] = [:]  // a placeholder's bytes → the first path they were written at
        for reservation in reserved.prefix(Self.maxPlaceholders) {
            // The snapshot's own index.html leads to the start page (``writeRootIndex``).
            if reservation.path == "index.html" { continue }
            let bytes = reservation.isRequisite
                ? [] : NotMirroredPage.html(reason: reservation.reason, site: job.name, date: date)
            do {
                try directories.ensure(CreatedDirectories.parent(of: reservation.path), in: fileSystem)
                if let source = written[bytes], (try? fileSystem.link(source, as: reservation.path)) == true { continue }
                try fileSystem.createFile(bytes, at: reservation.path)
                written[bytes] = reservation.path
            } catch {
                if case .diskFull = error { throw error }
                if case .io(_, _, EEXIST) = error { continue }  // a file is there already: keep it
                failed += 1
                if first == nil { first = error }
            }
        }
        return (failed, first)
    }

    /// Writes `index.html` at the snapshot root, leading to the start page, unless the start
    /// page (or another mirrored page) already is `index.html`.
    func writeRootIndex(staging: StagingSnapshot, paths: LocalPaths) throws(StoreError) {
        guard let start = job.startURLs.first, let startPath = paths.path(ofKey: start.string), startPath != "index.html" else { return }
        if (try? staging.fileSystem.read("index.html")) != nil { return }
        let link = PathMapper.relativeLink(from: "index.html", to: startPath, fragment: nil)
        let escaped = htmlEscape(link)
        let html = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>\(htmlEscape(job.name)) mirror</title>
            <meta http-equiv="refresh" content="0; url=\(escaped)"></head>
            <body><p>Mirror of <code>\(htmlEscape(start.string))</code>: <a href="\(escaped)">start page</a>.</p></body></html>

            """
        try staging.fileSystem.write(Array(html.utf8), to: "index.html")
    }
}
