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
    /// core; each document is replaced atomically, and only if something changed.
    ///
    /// - Returns: how many documents were rewritten.
    func rewriteDocuments(
        state: CrawlState, staging: StagingSnapshot, originals: OriginalsPack, paths: [String: String], previous: PreviousSnapshot?
    ) async -> (rewritten: Int, failures: [(path: String, error: StoreError)]) {
        let documents = await state.documents
        let urls = await state.urls
        let localPaths = urls.strings.map { paths[$0] }
        let previousPaths = previous?.localPaths() ?? [:]
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let fileSystem = staging.fileSystem
        let directories = self.directories
        return await withTaskGroup(of: (Int, [(path: String, error: StoreError)]).self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var count = 0
                    var failures: [(path: String, error: StoreError)] = []
                    var index = worker
                    while index < documents.count {
                        let document = documents[index]
                        index += workers
                        if let previous, Self.reuseRewritten(document, previous: previous, previousPaths: previousPaths,
                                                             paths: paths, fileSystem: fileSystem, directories: directories) {
                            continue
                        }
                        do {
                            if try Self.rewrite(document, fileSystem: fileSystem, directories: directories, paths: paths,
                                                urls: (urls, localPaths), originals: originals) { count += 1 }
                        } catch let error as StoreError {
                            failures.append((document.localPath, error))
                        } catch {
                            failures.append((document.localPath, .io(operation: "rewrite", path: document.localPath, errno: 0)))
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

    /// Links the previous snapshot's rewritten copy of an unchanged document, when every URL it
    /// refers to maps to the same local path (or to none) in both snapshots: rewriting it again
    /// would give the same bytes. Returns false when the document must be rewritten.
    static func reuseRewritten(
        _ document: CrawlState.Document, previous: PreviousSnapshot, previousPaths: [String: String],
        paths: [String: String], fileSystem: SecureFileSystem, directories: CreatedDirectories
    ) -> Bool {
        guard let references = document.unchangedReferences,
              previousPaths[document.url.string] == document.localPath else { return false }
        for reference in references {
            let url = reference.hasPrefix("+") ? String(reference.dropFirst()) : reference
            if previousPaths[url] != paths[url] { return false }
        }
        do {
            try directories.ensure(CreatedDirectories.parent(of: document.localPath), in: fileSystem)
            return try hardLink(previous.fileSystem.absolutePath(document.localPath), fileSystem.absolutePath(document.localPath),
                                path: document.localPath)
        } catch {
            return false
        }
    }

    /// Where the original (unrewritten) bytes of a document that streamed to a file are kept:
    /// content-addressed, so that a refresh can rewrite an unchanged document again without
    /// downloading it. Documents received in memory keep theirs in the ``OriginalsPack``.
    static func rawPath(sha256: String) -> String { "_mirror/raw/\(sha256)" }

    /// Rewrites one document. Returns true when its bytes changed.
    ///
    /// An original in `originals` is read from there and the document's file is created. An
    /// original on disk keeps its inode under ``rawPath(sha256:)`` (a hard link, no copy), and
    /// the rewritten bytes go to a new file under the document's name. The staging snapshot is
    /// private (0700, every folder made by this run), so plain paths are used, as for
    /// downloads, and no temporary name is needed: if the run dies in between, the unpublished
    /// snapshot is discarded anyway.
    /// - Parameters:
    ///   - urls: the table that ``CrawlState/Document/deferred`` targets are numbered in, with
    ///     each URL's local path; without it, the document is parsed again.
    ///   - originals: the snapshot's pack, for documents whose original is only there.
    ///   - replaceAtomically: for a snapshot that is being served (live mode): the rewritten
    ///     file is renamed over the document, so that a reader never finds the name missing.
    /// - Throws: ``MirrorStore/StoreError`` (``MirrorStore/StoreError/diskFull(path:)`` when the
    ///   disk is full); the document is then left as it was downloaded.
    static func rewrite(
        _ document: CrawlState.Document, fileSystem: SecureFileSystem, directories: CreatedDirectories,
        paths: [String: String], urls: (table: URLTable, localPaths: [String?])? = nil, originals: OriginalsPack? = nil,
        replaceAtomically: Bool = false
    ) throws -> Bool {
        let raw = rawPath(sha256: document.sha256)
        let rawFile = fileSystem.absolutePath(raw)
        let documentFile = fileSystem.absolutePath(document.localPath)
        // The original: from the pack (a document received in memory, or a 304 whose original
        // was copied there), else under its raw name. A document downloaded to a file is
        // linked to the raw name here first. (Not renamed: documents with the same bytes share
        // the raw name, and a rename over it could unlink the inode another task is about to
        // link.) EEXIST: the same bytes are there already.
        let packed = document.originalOnly ? try originals?.read(document.sha256) : nil
        let exists: Bool
        let bytes: [UInt8]
        if let packed {
            exists = false
            bytes = packed
        } else {
            try directories.ensure("_mirror/raw", in: fileSystem)
            exists = !document.originalOnly && (link(documentFile, rawFile) == 0 || errno == EEXIST)
            if !exists, !document.originalOnly, errno != ENOENT { throw StoreError.from(errno: errno, operation: "link", path: raw) }
            bytes = try readDownload(rawFile)
        }
        let output: [UInt8]
        if let deferred = document.deferred, let urls,
           let rewritten = try deferred.rewrite(bytes, documentPath: document.localPath, urls: urls.table, localPaths: urls.localPaths) {
            output = rewritten
        } else {
            output = try rewriteParsing(document, bytes: bytes, paths: paths)
        }
        if !exists { try directories.ensure(CreatedDirectories.parent(of: document.localPath), in: fileSystem) }
        if packed != nil {
            // No file under either name yet: the document's file is created, changed or not.
            try writeNewFile(output, at: documentFile, shownAs: document.localPath)
            return output != bytes
        }
        if output == bytes {
            if !exists, try !hardLink(rawFile, documentFile, path: document.localPath) {
                throw StoreError.from(errno: ENOENT, operation: "link", path: raw)
            }
            return false
        }
        if !replaceAtomically {
            if exists, unlink(documentFile) != 0, errno != ENOENT {
                throw StoreError.from(errno: errno, operation: "unlink", path: document.localPath)
            }
            do {
                try writeNewFile(output, at: documentFile, shownAs: document.localPath)
            } catch {
                _ = link(rawFile, documentFile)  // the original stays in place
                throw error
            }
            return true
        }
        let temporaryFile = documentFile + ".rewrite:" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try writeNewFile(output, at: temporaryFile, shownAs: document.localPath)
        if rename(temporaryFile, documentFile) != 0 {
            let code = errno
            unlink(temporaryFile)
            throw StoreError.from(errno: code, operation: "rename", path: document.localPath)
        }
        return true
    }

    /// Creates `path` (which must not exist; no symbolic link followed) with `bytes`, mode 0600.
    /// On failure the partial file is removed.
    /// - Parameter replacing: a file already at `path` is replaced (unlinked first).
    static func writeNewFile(_ bytes: [UInt8], at path: String, shownAs name: String, replacing: Bool = false) throws(StoreError) {
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == EEXIST {
            if replacing, unlink(path) == 0 || errno == ENOENT {
                descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
        }
        guard descriptor >= 0 else { throw StoreError.from(errno: errno, operation: "open", path: name) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(path)
                throw StoreError.from(errno: code, operation: "write", path: name)
            }
            offset += n
        }
        if close(descriptor) != 0 {
            let code = errno
            unlink(path)
            throw StoreError.from(errno: code, operation: "close", path: name)
        }
    }

    /// The rewritten bytes of a document without a ``DeferredRewrite``: it is parsed again.
    private static func rewriteParsing(_ document: CrawlState.Document, bytes: [UInt8], paths: [String: String]) throws -> [UInt8] {
        let lookup: (WebURL) -> String? = { paths[$0.withoutFragment.string] }
        switch document.kind {
        case .html:
            let extraction = try HTMLExtractor.extract(bytes, contentType: document.contentType)
            let base = baseURL(of: extraction, documentURL: document.url)
            let plan = LinkPlanner.plan(
                references: extraction.references, documentPath: document.localPath, baseURL: base, localPath: lookup)
            let replacements = replacementTable(extraction.references, plan)
            return try ReferenceRewriter.rewrite(
                extraction, options: .init(dropIntegrityOfRewritten: true, neutraliseBase: true)
            ) { replacements[$0] }
        case .css:
            let references = CSSExtractor.extract(bytes)
            let plan = LinkPlanner.plan(
                references: references, documentPath: document.localPath, baseURL: document.url, localPath: lookup)
            let replacements = replacementTable(references, plan)
            return try ReferenceRewriter.rewriteCSS(bytes) { replacements[$0] }
        }
    }

    private static func replacementTable(_ references: [Reference], _ plan: LinkPlan) -> [Reference: String] {
        var table: [Reference: String] = [:]
        for (index, text) in plan.replacements where index < references.count {
            table[references[index]] = text
        }
        return table
    }

    /// The most placeholders one run writes: a page with 50,000 links beyond `--max-pages`
    /// would otherwise add 50,000 files. The other reserved paths stay absent (the manifest
    /// still lists them).
    static let maxPlaceholders = 10_000

    /// Writes a file at each reserved path (``CrawlState/reservePaths(mapper:taken:)``): for a
    /// page, a ``NotMirroredPage`` that says why it is missing; for a requisite, an empty file.
    /// So every local link of the copy opens something, from disk as through `serve`.
    /// - Returns: how many could not be written, and the first such error.
    /// - Throws: ``MirrorStore/StoreError/diskFull(path:)`` at once.
    func writePlaceholders(for reserved: [String: CrawlState.Reservation], in fileSystem: SecureFileSystem,
                           date: Date) throws(StoreError) -> (failed: Int, first: StoreError?) {
        var failed = 0
        var first: StoreError?
        for (url, reservation) in reserved.sorted(by: { $0.key < $1.key }).prefix(Self.maxPlaceholders) {
            // The snapshot's own index.html leads to the start page (``writeRootIndex``).
            if reservation.path == "index.html" { continue }
            let bytes = reservation.isRequisite
                ? [] : NotMirroredPage.html(url: url, reason: reservation.reason, site: job.name, date: date)
            do {
                try directories.ensure(CreatedDirectories.parent(of: reservation.path), in: fileSystem)
                try Self.writeNewFile(bytes, at: fileSystem.absolutePath(reservation.path), shownAs: reservation.path)
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
    func writeRootIndex(staging: StagingSnapshot, paths: [String: String]) throws(StoreError) {
        guard let start = job.startURLs.first, let startPath = paths[start.string], startPath != "index.html" else { return }
        if (try? staging.fileSystem.read("index.html")) != nil { return }
        let link = PathMapper.relativeLink(from: "index.html", to: startPath, fragment: nil)
        let escaped = link.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let html = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>\(job.name) mirror</title>
            <meta http-equiv="refresh" content="0; url=\(escaped)"></head>
            <body><p>Mirror of <code>\(start.string.replacingOccurrences(of: "<", with: "&lt;"))</code>: <a href="\(escaped)">start page</a>.</p></body></html>

            """
        try staging.fileSystem.write(Array(html.utf8), to: "index.html")
    }
}
