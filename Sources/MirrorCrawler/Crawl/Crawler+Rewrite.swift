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
    func rewriteDocuments(state: CrawlState, staging: StagingSnapshot, paths: [String: String], previous: PreviousSnapshot?) async -> Int {
        let documents = await state.documents
        let previousPaths = previous?.localPaths() ?? [:]
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let fileSystem = staging.fileSystem
        return await withTaskGroup(of: Int.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var count = 0
                    var index = worker
                    while index < documents.count {
                        let document = documents[index]
                        index += workers
                        if let previous, Self.reuseRewritten(document, previous: previous, previousPaths: previousPaths,
                                                             paths: paths, fileSystem: fileSystem, directories: self.directories) {
                            continue
                        }
                        if (try? Self.rewrite(document, fileSystem: fileSystem, paths: paths)) == true { count += 1 }
                    }
                    return count
                }
            }
            var total = 0
            for await count in group { total += count }
            return total
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
    /// The original is first hard-linked to ``rawPath(sha256:)`` (no copy); the rewritten
    /// file then replaces the document atomically, leaving the original's inode to the link.
    static func rewrite(_ document: CrawlState.Document, fileSystem: SecureFileSystem, paths: [String: String]) throws -> Bool {
        let raw = rawPath(sha256: document.sha256)
        // A document revalidated with 304 arrives as its original bytes only (linked from the
        // previous snapshot); a fetched one is linked to its raw name here.
        if access(fileSystem.absolutePath(raw), F_OK) != 0 {
            try fileSystem.createDirectory("_mirror/raw")
            try hardLink(fileSystem.absolutePath(document.localPath), fileSystem.absolutePath(raw), path: raw)
        }
        let bytes = try fileSystem.read(raw)
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
        if output == bytes, access(fileSystem.absolutePath(document.localPath), F_OK) == 0 { return false }
        try fileSystem.write(output, to: document.localPath)
        return output != bytes
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
