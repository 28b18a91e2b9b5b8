import Foundation
import MirrorCore
import MirrorDocument
import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

/// The one path of a document from fetched body to stored, rewritten file, whoever fetched it:
/// the crawl, `serve --live`, and render mode's browser (its rendered DOM goes the same way).
///
/// 1. **Analyse** (``analyse(_:type:contentType:url:maxURLLength:cache:)``): the body is
///    parsed once, by libxml2 for HTML, by the CSS tokenizer for CSS; its references are
///    resolved into the links to crawl and into a ``DeferredRewrite/Draft``, which remembers
///    where each reference sits in the bytes.
/// 2. **Store**: the caller puts the original where the store keeps it (the document's file,
///    the ``MirrorStore/OriginalsPack`` or ``MirrorStore/SecureFileSystem/rawPath(sha256:)``),
///    through ``MirrorStore/SecureFileSystem``'s staging calls.
/// 3. **Rewrite** (``rewrite(_:fileSystem:directories:paths:urls:originals:replaceAtomically:)``):
///    once every link has its local path, the draft splices the new references into the
///    original bytes; nothing is parsed again (a document without a draft, such as a UTF-16
///    page, is parsed a second time here).
enum DocumentPipeline {
    /// What parsing a fetched document gave: its links, its kind, and its prepared rewrite.
    struct Analysis: Sendable {
        var links: [DiscoveredLink] = []
        var kind: CrawlState.DocumentKind?
        var draft: DeferredRewrite.Draft?
    }

    /// Parses an HTML or CSS document and resolves its references (``discover``).
    static func analyse(
        _ bytes: [UInt8], type: DocumentType, contentType: String?, url: WebURL, maxURLLength: Int, cache: ResolutionCache
    ) throws -> Analysis {
        var analysis = Analysis()
        switch type {
        case .html:
            analysis.kind = .html
            let extraction = try HTMLExtractor.extract(bytes, contentType: contentType)
            let base = baseURL(of: extraction, documentURL: url)
            // A UTF-16 document's spans index its UTF-8 transcoding, not the stored bytes: it
            // is parsed again when rewritten.
            analysis.draft = extraction.isTranscoded ? nil : DeferredRewrite.Draft(charset: extraction.charset, length: bytes.count)
            analysis.links = discover(extraction.references, base: base, maxURLLength: maxURLLength, draft: &analysis.draft,
                                      cache: cache)
        case .css:
            analysis.kind = .css
            analysis.draft = DeferredRewrite.Draft(charset: .utf8, length: bytes.count)
            analysis.links = discover(CSSExtractor.extract(bytes), base: url, maxURLLength: maxURLLength, draft: &analysis.draft,
                                      cache: cache)
        case .other:
            break
        }
        return analysis
    }

    /// Resolves a document's references once: the in-scope candidates to crawl, and (into
    /// `draft`) what the rewrite will need.
    static func discover(
        _ references: [Reference], base: WebURL, maxURLLength: Int, draft: inout DeferredRewrite.Draft?,
        cache: ResolutionCache? = nil
    ) -> [DiscoveredLink] {
        var links: [DiscoveredLink] = []
        links.reserveCapacity(min(references.count, 1_024))
        // Each URL is offered once per way it is referenced (a page links the same targets
        // many times: navigation, anchors of one page), as a refresh offers the distinct URLs
        // the manifest kept. The draft numbers each URL already: its number finds the link
        // without hashing the URL again (by text only without a draft).
        var linkOfNumber: [[Bool]] = [[], []]  // pages, requisites: offered, by draft number
        var offered: [Set<WebURL>] = [[], []]
        draft?.reserve(references.count)
        let folder = cache.map { _ in ResolutionCache.Folder(of: base) }
        for reference in references {
            if reference.kind == .base {
                if let span = reference.attributeSpan { draft?.delete(span) }
                continue
            }
            let resolved = if let cache, let folder {
                cache.resolve(reference.value, baseURL: base, folder: folder)
            } else {
                ResolutionCache.Resolution(LinkPlanner.target(of: reference.value, baseURL: base))
            }
            guard let resolved else { continue }
            let number = draft?.add(reference, target: resolved.target, fragment: resolved.fragment)
            if case .url(let bare, _) = resolved.target, bare.string.utf8.count <= maxURLLength {
                // Requisite and page references to one URL stay apart (the scope treats them differently).
                let kind = reference.isRequisite ? 1 : 0
                let isNew: Bool
                if let number {
                    while linkOfNumber[kind].count <= number { linkOfNumber[kind].append(false) }
                    isNew = !linkOfNumber[kind][number]
                    linkOfNumber[kind][number] = true
                } else {
                    isNew = offered[kind].insert(bare).inserted
                }
                if isNew { links.append(DiscoveredLink(url: bare, isRequisite: reference.isRequisite)) }
            }
        }
        return links
    }

    /// The URL that relative references resolve against: `<base href>` when present.
    static func baseURL(of extraction: HTMLExtraction, documentURL: WebURL) -> WebURL {
        if let base = extraction.base, let resolved = documentURL.resolve(base.value) { return resolved }
        return documentURL
    }

    /// Rewrites one document. Returns true when its bytes changed.
    ///
    /// An original in `originals` is read from there and the document's file is created. An
    /// original on disk keeps its inode under ``rawPath(sha256:)`` (a hard link, no copy), and
    /// the rewritten bytes go to a new file under the document's name. The staging snapshot is
    /// private (0700, every folder made by this run), so plain paths are used, as for
    /// downloads, and no temporary name is needed: if the run dies in between, the unpublished
    /// snapshot is discarded anyway.
    /// - Parameters:
    ///   - localPath: the local path of a mirrored URL (by its normalised text without
    ///     fragment), nil for one that is not mirrored.
    ///   - originals: the snapshot's pack, for documents whose original is only there.
    ///   - replaceAtomically: for a snapshot that is being served (live mode): the rewritten
    ///     file is renamed over the document, so that a reader never finds the name missing.
    /// - Throws: ``MirrorStore/StoreError`` (``MirrorStore/StoreError/diskFull(path:)`` when the
    ///   disk is full); the document is then left as it was downloaded.
    static func rewrite(
        _ document: CrawlState.Document, fileSystem: SecureFileSystem, directories: CreatedDirectories,
        localPath: (String) -> String?, originals: OriginalsPack? = nil, replaceAtomically: Bool = false
    ) throws -> Bool {
        let raw = SecureFileSystem.rawPath(sha256: document.sha256)
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
            exists = try !document.originalOnly && fileSystem.link(document.localPath, as: raw)
            bytes = try SecureFileSystem.readFile(atPath: fileSystem.absolutePath(raw))
        }
        let output: SplicedDocument
        if let deferred = document.deferred,
           let spliced = try deferred.splice(bytes, documentPath: document.localPath, localPaths: deferred.keys.map(localPath)) {
            output = spliced
        } else {
            output = try spliceParsing(document, bytes: bytes, localPath: localPath)
        }
        // The edits may change nothing, and a parse of a UTF-16 document edits its UTF-8 form.
        let unchanged = !output.changesSource && same(output.source, bytes)
        if !exists { try directories.ensure(CreatedDirectories.parent(of: document.localPath), in: fileSystem) }
        if packed != nil {
            // No file under either name yet: the document's file is created, changed or not.
            try write(output, to: document.localPath, in: fileSystem, replacing: false)
            return !unchanged
        }
        if unchanged {
            if !exists, try !fileSystem.link(raw, as: document.localPath) {
                throw StoreError.from(errno: ENOENT, operation: "link", path: raw)
            }
            return false
        }
        if !replaceAtomically {
            if exists { try fileSystem.unlinkFile(document.localPath) }
            do {
                try write(output, to: document.localPath, in: fileSystem, replacing: false)
            } catch {
                _ = try? fileSystem.link(raw, as: document.localPath)  // the original stays in place
                throw error
            }
            return true
        }
        try write(output, to: document.localPath, in: fileSystem, replacing: true)
        return true
    }

    /// Writes a rewritten document from its pieces: the original's runs and the new links go
    /// to the file as they are (``SplicedDocument``). `replacing`: renamed over the file in place.
    private static func write(_ document: SplicedDocument, to path: String, in fileSystem: SecureFileSystem,
                              replacing: Bool) throws(StoreError) {
        try document.withPieces { (pieces) throws(StoreError) in
            if replacing {
                try fileSystem.replaceFile(pieces: pieces, at: path)
            } else {
                try fileSystem.createFile(pieces: pieces, at: path)
            }
        }
    }

    /// Whether two documents are byte for byte the same (one `memcmp`; `==` on arrays of bytes
    /// compares element by element, which showed in profiles of documents whose links all stay).
    /// A rewrite without edits hands back the original array itself, which is not compared.
    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                x.count == 0 || x.baseAddress == y.baseAddress || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
    }

    /// The rewrite of a document without a ``DeferredRewrite``: it is parsed again.
    private static func spliceParsing(_ document: CrawlState.Document, bytes: [UInt8], localPath: (String) -> String?) throws -> SplicedDocument {
        switch document.kind {
        case .html:
            let extraction = try HTMLExtractor.extract(bytes, contentType: document.contentType)
            let base = baseURL(of: extraction, documentURL: document.url)
            let plan = LinkPlanner.plan(
                references: extraction.references, documentPath: document.localPath, baseURL: base, localPath: { localPath($0.withoutFragment.string) })
            let replacements = replacementTable(extraction.references, plan)
            return try ReferenceRewriter.splice(
                extraction, options: .init(dropIntegrityOfRewritten: true, neutraliseBase: true)
            ) { replacements[$0] }
        case .css:
            let references = CSSExtractor.extract(bytes)
            let plan = LinkPlanner.plan(
                references: references, documentPath: document.localPath, baseURL: document.url, localPath: { localPath($0.withoutFragment.string) })
            let replacements = replacementTable(references, plan)
            return try ReferenceRewriter.spliceCSS(bytes) { replacements[$0] }
        }
    }

    private static func replacementTable(_ references: [Reference], _ plan: LinkPlan) -> [Reference: String] {
        var table: [Reference: String] = [:]
        for (index, text) in plan.replacements where index < references.count {
            table[references[index]] = text
        }
        return table
    }
}
