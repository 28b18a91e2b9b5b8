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
        state: CrawlState, staging: StagingSnapshot, paths: [String: String], previous: PreviousSnapshot?
    ) async -> (rewritten: Int, failures: [(path: String, error: StoreError)]) {
        let documents = await state.documents
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
                            if try Self.rewrite(document, fileSystem: fileSystem, directories: directories, paths: paths) { count += 1 }
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
            try hardLink(previous.fileSystem.absolutePath(document.localPath), fileSystem.absolutePath(document.localPath),
                         path: document.localPath)
            return true
        } catch {
            return false
        }
    }

    /// Where the original (unrewritten) bytes of a document are kept: content-addressed, so
    /// that a refresh can rewrite an unchanged document again without downloading it.
    static func rawPath(sha256: String) -> String { "_mirror/raw/\(sha256)" }

    /// Rewrites one document. Returns true when its bytes changed.
    ///
    /// The original is first hard-linked to ``rawPath(sha256:)`` (no copy); the rewritten bytes
    /// then go to a new file that takes the document's name, leaving the original's inode to
    /// the link. The staging snapshot is private (0700, every folder made by this run), so plain
    /// paths are used, as for downloads. The old name is removed before the rename so that ext4
    /// does not flush the new file's data at once (its "replace by rename" heuristic); if the run
    /// dies in between, the unpublished snapshot is discarded anyway.
    /// - Parameter replaceAtomically: rename over the old name instead (for a snapshot that is
    ///   being served, as in live mode: a reader then never finds the name missing).
    /// - Throws: ``MirrorStore/StoreError`` (``MirrorStore/StoreError/diskFull(path:)`` when the
    ///   disk is full); the document is then left as it was downloaded.
    static func rewrite(
        _ document: CrawlState.Document, fileSystem: SecureFileSystem, directories: CreatedDirectories,
        paths: [String: String], replaceAtomically: Bool = false
    ) throws -> Bool {
        let raw = rawPath(sha256: document.sha256)
        let rawFile = fileSystem.absolutePath(raw)
        let documentFile = fileSystem.absolutePath(document.localPath)
        // A document revalidated with 304 arrives as its original bytes only (linked from the
        // previous snapshot); a fetched one is linked to its raw name here.
        if access(rawFile, F_OK) != 0 {
            try directories.ensure("_mirror/raw", in: fileSystem)
            try hardLink(documentFile, rawFile, path: raw)
        }
        let bytes = try readDownload(rawFile)
        let lookup: (WebURL) -> String? = { paths[$0.withoutFragment.string] }
        let output: [UInt8]
        switch document.kind {
        case .html:
            let extraction = try HTMLExtractor.extract(bytes, contentType: document.contentType)
            let base = baseURL(of: extraction, documentURL: document.url)
            let plan = LinkPlanner.plan(
                references: extraction.references, documentPath: document.localPath, baseURL: base, localPath: lookup)
            let replacements = replacementTable(extraction.references, plan)
            output = try ReferenceRewriter.rewrite(
                extraction, options: .init(dropIntegrityOfRewritten: true, neutraliseBase: true)
            ) { replacements[$0] }
        case .css:
            let references = CSSExtractor.extract(bytes)
            let plan = LinkPlanner.plan(
                references: references, documentPath: document.localPath, baseURL: document.url, localPath: lookup)
            let replacements = replacementTable(references, plan)
            output = try ReferenceRewriter.rewriteCSS(bytes) { replacements[$0] }
        }
        let exists = access(documentFile, F_OK) == 0
        if output == bytes, exists { return false }
        let folder = CreatedDirectories.parent(of: document.localPath)
        try directories.ensure(folder, in: fileSystem)
        let temporaryFile = documentFile + ".rewrite:" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try writeNewFile(output, at: temporaryFile, shownAs: document.localPath)
        if exists, !replaceAtomically, unlink(documentFile) != 0, errno != ENOENT {
            let code = errno
            unlink(temporaryFile)
            throw StoreError.from(errno: code, operation: "unlink", path: document.localPath)
        }
        if rename(temporaryFile, documentFile) != 0 {
            let code = errno
            unlink(temporaryFile)
            if exists, !replaceAtomically { _ = link(rawFile, documentFile) }  // put the original back
            throw StoreError.from(errno: code, operation: "rename", path: document.localPath)
        }
        return output != bytes
    }

    /// Creates `path` (which must not exist; no symbolic link followed) with `bytes`, mode 0600.
    /// On failure the partial file is removed.
    static func writeNewFile(_ bytes: [UInt8], at path: String, shownAs name: String) throws(StoreError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
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

    private static func replacementTable(_ references: [Reference], _ plan: LinkPlan) -> [Reference: String] {
        var table: [Reference: String] = [:]
        for (index, text) in plan.replacements where index < references.count {
            table[references[index]] = text
        }
        return table
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
