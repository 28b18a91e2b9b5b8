import Foundation
import MirrorCore
import MirrorDocument
import MirrorHTTP
import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

/// Live mode: fetches what the mirror lacks (or holds too long) over mTLS when a browser asks
/// the local server for it, rewrites it exactly as the crawler does, stores it in the current
/// snapshot with a manifest update, and lets the server answer from disk.
///
/// The browser never sees the client certificate: only this process talks to the origin, with
/// the site's own identity and trust table. Only in-scope URLs are fetched. Concurrent requests
/// for one URL share one fetch. Files are added by atomic rename, so a snapshot never holds a
/// half-written file, and files shared with older snapshots (hard links) are never modified.
public actor LiveFetcher {
    /// What happened to a request for a local path.
    public enum Outcome: Sendable, Equatable {
        /// The file is now at the requested path.
        case stored
        /// The request named an origin path; its file is stored at `localPath` (redirect there).
        case moved(localPath: String)
        /// The URL is outside the site's scope: never fetched.
        case notInScope
        /// The origin failed; `staleCopy` says whether an older copy is on disk.
        case failed(reason: String, staleCopy: Bool)
    }

    public let job: SiteJob
    let security: SecurityPolicy
    let client: HTTPClient
    let logger: Logger
    let scope: CrawlScope
    /// Render mode's browser for this site's live pages (nil when the site is not rendered).
    let rendering: LiveRendering?
    private let mapper: PathMapper
    private let store: SnapshotStore
    private let freshness: FreshnessIndex
    private var loadedID: String?
    private var fileSystem: SecureFileSystem?
    private var manifest = Manifest()
    private var urlByPath: [String: String] = [:]
    private var inflight: [String: Task<Outcome, Never>] = [:]
    private var counter = 0

    /// - Parameters:
    ///   - job: the site (start URLs, scope, limits, headers, cookies).
    ///   - security: identity scope and trust table, as for a crawl.
    ///   - client: the HTTP engine.
    ///   - maxAge: files fetched longer ago than this are fetched again; nil: never.
    ///   - logger: one line per live fetch.
    /// - Throws: ``CrawlError`` for an unusable job or site folder.
    public init(job: SiteJob, security: SecurityPolicy, client: HTTPClient, maxAge: TimeInterval?, logger: Logger) throws(CrawlError) {
        guard let primary = job.startURLs.first else { throw .invalidJob("no start URL") }
        self.job = job
        self.security = security
        self.client = client
        self.logger = logger
        do {
            scope = try CrawlScope(startURLs: job.startURLs, configuration: job.scope)
            store = try SnapshotStore(siteDirectory: job.siteDirectory)
        } catch let error as ScopeError {
            throw .invalidJob(error.summary)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .invalidJob(String(describing: error))
        }
        mapper = PathMapper(primaryOrigin: primary)
        rendering = LiveRendering(job: job, logger: logger)
        freshness = FreshnessIndex(maxAge: maxAge)
        // Load the current snapshot now: the server asks `isStale` before any miss.
        if let loaded = Self.load(from: store) {
            (loadedID, fileSystem, manifest, urlByPath) = (loaded.id, loaded.fileSystem, loaded.manifest, loaded.urlByPath)
            freshness.replace(loaded.times, placeholders: loaded.placeholders)
        }
    }

    /// Whether the file at `path` (below the site, starting with `/`) is older than the max age,
    /// or only a placeholder for a page the crawl did not mirror (``NotMirroredPage``).
    /// Cheap and synchronous: the server calls it for every file it serves.
    public nonisolated func isStale(path: String) -> Bool {
        freshness.isStale(Self.relative(path))
    }

    /// Makes the file for `path` available, fetching it live when it is in scope.
    /// - Parameter path: the request path below the site, percent-encoded, starting with `/`.
    public func resolve(path: String) async -> Outcome {
        reloadIfNeeded()
        guard let fileSystem else { return .failed(reason: "the site has no published snapshot yet", staleCopy: false) }
        let relative = Self.relative(path)
        let url: WebURL
        var forcedPath: String?
        if let key = urlByPath[relative], let known = WebURL(key) {
            url = known
            forcedPath = relative
        } else if let primary = job.startURLs.first, let requested = primary.resolve(path) {
            url = requested.withoutFragment
            if let entry = manifest.entry(for: url), let local = entry.localPath, entry.status != nil,
               (try? fileSystem.read(local)) != nil, !freshness.isStale(local) {
                return .moved(localPath: local)
            }
            forcedPath = manifest.entry(for: url)?.localPath
        } else {
            return .notInScope
        }
        let key = url.string
        if let running = inflight[key] { return await running.value }
        let task = Task { await self.fetch(url, forcedPath: forcedPath, requestedPath: relative, fileSystem: fileSystem) }
        inflight[key] = task
        let outcome = await task.value
        inflight[key] = nil
        return outcome
    }

    /// The stored file and its media type, for serving a stale copy with a notice.
    public func storedCopy(path: String) -> (bytes: [UInt8], contentType: String?)? {
        let relative = Self.relative(path)
        guard let fileSystem, let bytes = try? fileSystem.read(relative) else { return nil }
        let type = urlByPath[relative].flatMap { manifest.entry(forKey: $0)?.contentType }
        return (bytes, type)
    }

    // MARK: Fetching

    private func fetch(_ url: WebURL, forcedPath: String?, requestedPath: String, fileSystem: SecureFileSystem) async -> Outcome {
        // A placeholder is no copy of the page: a failed fetch answers "not found".
        let stale = !freshness.isPlaceholder(forcedPath ?? requestedPath) && (try? fileSystem.read(forcedPath ?? requestedPath)) != nil
        let decision = scope.classify(url, isRequisite: false, depth: 0)
        let requisite = scope.classify(url, isRequisite: true, depth: 0)
        guard decision == .page || requisite == .requisite || requisite == .page else { return .notInScope }
        counter += 1
        let temporary = "_mirror/tmp/live-\(getpid())-\(counter)"
        do {
            try fileSystem.createDirectory("_mirror/tmp")
        } catch {
            return .failed(reason: error.summary, staleCopy: stale)
        }
        let temporaryPath = fileSystem.absolutePath(temporary)
        defer { SecureFileSystem.discard(temporaryPath: temporaryPath) }
        var request = HTTPRequest(
            url: url.string, headers: job.headers, destination: .file(temporaryPath),
            maxBodyBytes: job.limits.maxFileSize, maxDecompressionRatio: job.limits.maxDecompressionRatio,
            timeouts: job.limits.timeouts, userAgent: job.userAgent)
        request.syncFile = false
        request.bodyFiles = fileSystem.downloads
        let scope = self.scope
        let result: FetchResult
        do {
            result = try await client.fetch(
                request, security: security, redirects: job.redirects, retries: job.retries, cookies: job.cookies,
                follow: { target in WebURL(target).map { scope.classify($0, isRequisite: true, depth: 0).isFetched } ?? false })
        } catch {
            logger.warning("live: \(url.string): \(error.summary)")
            return .failed(reason: error.summary, staleCopy: stale)
        }
        var response = result.response
        guard (200...299).contains(response.status) else {
            logger.warning("live: \(url.string): HTTP \(response.status)")
            return .failed(reason: "the origin answered HTTP \(response.status)", staleCopy: stale)
        }
        let finalURL = WebURL(result.finalURL)?.withoutFragment ?? url
        if let rendered = await rendered(finalURL, response: response, temporaryPath: temporaryPath) { response = rendered }
        let contentType = response.headers["Content-Type"]
        let localPath = forcedPath ?? mapper.relativePath(for: finalURL, contentType: contentType)
        do {
            try save(response: response, url: url, finalURL: finalURL, localPath: localPath,
                      temporaryPath: temporaryPath, fileSystem: fileSystem)
        } catch {
            return .failed(reason: "storing \(localPath) failed: \(error)", staleCopy: stale)
        }
        logger.info("live: fetched \(finalURL.string) -> \(localPath) (\(response.bodyBytes) bytes)")
        return localPath == requestedPath ? .stored : .moved(localPath: localPath)
    }

    /// Stores a fetched document through the ``DocumentPipeline``, as a crawl does: analysed
    /// once (its links given local paths, reserved when not yet mirrored, so the browser comes
    /// back here for them), moved into the snapshot, and rewritten from its draft.
    private func save(
        response: HTTPResponse, url: WebURL, finalURL: WebURL, localPath: String, temporaryPath: String,
        fileSystem: SecureFileSystem
    ) throws {
        let contentType = response.headers["Content-Type"]
        let documentType = DocumentType(mediaType: response.mediaType, path: finalURL.path)
        var references: [String] = []
        var paths = currentPaths()
        var document: CrawlState.Document?
        if documentType != .other {
            let bytes = try SecureFileSystem.readFile(atPath: temporaryPath)
            let analysis = try DocumentPipeline.analyse(
                bytes, type: documentType, contentType: contentType, url: finalURL, maxURLLength: job.limits.maxURLLength,
                cache: ResolutionCache())
            for link in analysis.links {
                references.append(link.url.string)
                guard paths[link.url.string] == nil else { continue }
                let decision = scope.classify(link.url, isRequisite: link.isRequisite, depth: 1)
                guard decision.isFetched || decision == .tooDeep else { continue }
                let reserved = mapper.relativePath(for: link.url, contentType: link.isRequisite ? nil : "text/html")
                guard urlByPath[reserved] == nil else { continue }
                manifest.upsert(ManifestEntry(url: link.url, localPath: reserved, status: nil, error: "not mirrored: found in live mode"))
                urlByPath[reserved] = link.url.string
                paths[link.url.string] = reserved
            }
            if let kind = analysis.kind {
                var parsed = CrawlState.Document(url: finalURL, localPath: localPath, kind: kind, contentType: contentType,
                                                 sha256: response.sha256)
                parsed.deferred = analysis.draft.flatMap { DeferredRewrite($0) }
                document = parsed
            }
        }
        try fileSystem.adopt(temporaryPath: temporaryPath, as: localPath)
        paths[finalURL.string] = localPath
        paths[url.string] = localPath
        if let document {
            _ = try DocumentPipeline.rewrite(document, fileSystem: fileSystem, directories: CreatedDirectories(),
                                             localPath: { paths[$0] }, replaceAtomically: true)
        }
        let entry = ManifestEntry(
            url: finalURL, localPath: localPath, status: response.status, contentType: contentType,
            length: response.bodyBytes, sha256: response.sha256, etag: response.headers["ETag"],
            lastModified: response.headers["Last-Modified"], fetchedAt: Date(), error: nil, references: references)
        manifest.upsert(entry)
        if finalURL != url {
            manifest.upsert(ManifestEntry(url: url, localPath: localPath, status: 301, fetchedAt: Date(), references: [finalURL.string]))
        }
        urlByPath[localPath] = finalURL.string
        try manifest.save(to: fileSystem, at: "_mirror/manifest.tsv")
        freshness.record(localPath, fetchedAt: Date())
    }

    // MARK: Snapshot state

    private func currentPaths() -> [String: String] {
        var paths: [String: String] = [:]
        for entry in manifest { if let path = entry.localPath { paths[entry.url] = path } }
        return paths
    }

    /// Loads the current snapshot's manifest when `current` changed (a refresh published).
    private func reloadIfNeeded() {
        guard let id = store.currentID, id != loadedID, let loaded = Self.load(from: store) else { return }
        (loadedID, fileSystem, manifest, urlByPath) = (loaded.id, loaded.fileSystem, loaded.manifest, loaded.urlByPath)
        freshness.replace(loaded.times, placeholders: loaded.placeholders)
    }

    private struct Loaded {
        let id: String
        let fileSystem: SecureFileSystem
        let manifest: Manifest
        let urlByPath: [String: String]
        let times: [String: Date]
        /// Reserved paths (no status): at most a placeholder is there (``NotMirroredPage``).
        let placeholders: Set<String>
    }

    /// The current snapshot's manifest, its path → URL index and the fetch time of each file.
    private static func load(from store: SnapshotStore) -> Loaded? {
        guard let id = store.currentID, let path = store.currentPath,
              let fileSystem = try? SecureFileSystem(root: path, create: false, syncEachFile: true) else { return nil }
        let manifest = ((try? Manifest.loadIfPresent(from: fileSystem, at: "_mirror/manifest.tsv")) ?? nil) ?? Manifest()
        var urlByPath: [String: String] = [:]
        var times: [String: Date] = [:]
        var reserved: Set<String> = []
        var mirrored: Set<String> = []
        for entry in manifest {
            guard let local = entry.localPath else { continue }
            if urlByPath[local] == nil || entry.status != nil { urlByPath[local] = entry.url }
            if let fetched = entry.fetchedAt, entry.status != nil { times[local] = fetched }
            if entry.status == nil { reserved.insert(local) } else { mirrored.insert(local) }
        }
        return Loaded(id: id, fileSystem: fileSystem, manifest: manifest, urlByPath: urlByPath, times: times,
                      placeholders: reserved.subtracting(mirrored))
    }

    static func relative(_ path: String) -> String {
        var text = path.removingPercentEncoding ?? path
        while text.hasPrefix("/") { text.removeFirst() }
        if text.isEmpty || text.hasSuffix("/") { text += "index.html" }
        return text
    }
}

/// Fetch times by local path, readable from any thread (the server's event loop asks).
final class FreshnessIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [String: Date] = [:]
    /// Paths holding a placeholder, not a mirrored file: always fetched.
    private var placeholders: Set<String> = []
    let maxAge: TimeInterval?

    init(maxAge: TimeInterval?) { self.maxAge = maxAge }

    func isStale(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if placeholders.contains(path) { return true }
        guard let maxAge, let fetched = times[path] else { return false }
        return Date().timeIntervalSince(fetched) > maxAge
    }

    func isPlaceholder(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return placeholders.contains(path)
    }

    func record(_ path: String, fetchedAt: Date) {
        lock.lock()
        times[path] = fetchedAt
        placeholders.remove(path)
        lock.unlock()
    }

    func replace(_ all: [String: Date], placeholders reserved: Set<String>) {
        lock.lock()
        times = all
        placeholders = reserved
        lock.unlock()
    }
}
