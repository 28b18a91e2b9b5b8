import Foundation
import MirrorCore
import MirrorDocument
import MirrorHTTP
import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

/// Mirrors one site into a new snapshot: crawl (fetch, store, extract links), then rewrite
/// every HTML and CSS file so that the copy works offline, then publish atomically.
///
/// The logic lives in value types (``Frontier``, ``CrawlScope``, ``LinkPlanner``, the document
/// extractors); this class is the I/O shell that drives them. Bodies stream to disk; HTML and
/// CSS are parsed by the fetch tasks, so parsing spreads over the cores while downloads go on.
public final class Crawler: Sendable {
    public let job: SiteJob
    let security: SecurityPolicy
    let client: HTTPClient
    let logger: Logger
    let progress: CrawlProgress?
    /// Asks the crawl to stop early (a first signal); nil when nothing can.
    private let control: RunControl?
    /// Called once the run will make no more requests (see ``init(job:security:client:logger:progress:control:afterFetching:)``).
    private let afterFetching: (@Sendable () -> Void)?
    let scope: CrawlScope
    let mapper: PathMapper
    /// Folders already created in the snapshot being built (saves a walk per linked file).
    let directories = CreatedDirectories()
    /// What references resolved to, shared by the documents of one folder.
    let resolutions = ResolutionCache()
    /// Render mode's browser and rules, when the job renders pages (``SiteJob/render``).
    let rendering: Rendering?
    /// The sitemaps' `lastmod` per URL (``SitemapOptions/trustLastModified``).
    let sitemapDates = SitemapDates()

    /// - Parameters:
    ///   - job: the site, scope and limits.
    ///   - security: identity scope and trust table for every host.
    ///   - client: the HTTP engine (shared by all sites of a run).
    ///   - logger: diagnostics.
    ///   - progress: live progress output, or nil.
    ///   - control: lets the caller ask the crawl to stop early and publish what it has.
    ///   - afterFetching: called once, when the fetch phase is over and the run will make no
    ///     more requests, before the snapshot is assembled: a caller whose client serves this
    ///     run alone starts closing its connections there (``MirrorHTTP/HTTPClient/beginShutdown()``),
    ///     beside the assembly instead of after the publication.
    /// - Throws: ``CrawlError/invalidJob(_:)`` for an empty start list or a bad scope rule.
    public init(job: SiteJob, security: SecurityPolicy, client: HTTPClient, logger: Logger, progress: CrawlProgress? = nil,
                control: RunControl? = nil, afterFetching: (@Sendable () -> Void)? = nil) throws(CrawlError) {
        guard let primary = job.startURLs.first else { throw .invalidJob("no start URL") }
        self.job = job
        self.security = security
        self.client = client
        self.logger = logger
        self.progress = progress
        self.control = control
        self.afterFetching = afterFetching
        do {
            scope = try CrawlScope(startURLs: job.startURLs, configuration: job.scope)
        } catch {
            throw .invalidJob(error.summary)
        }
        mapper = PathMapper(primaryOrigin: primary)
        do {
            rendering = try job.render.map { settings throws(ScopeError) in try Rendering(settings: settings, logger: logger) }
        } catch {
            throw .invalidJob("render rule: \(error.summary)")
        }
    }

    /// Runs the crawl and publishes the snapshot.
    ///
    /// Three phases: fetch (``fetchPhase(_:)``: the browser, robots.txt, sitemaps, the crawl),
    /// assemble (``assemble(_:fetched:)``: the previous copy of what was not reached, the
    /// placeholders, the rewrite, the manifest), then the report and the publication. Whatever
    /// fails on the way, the staging snapshot is discarded in one place, here.
    ///
    /// - Returns: the report. A crawl in which some URLs failed still publishes (the report
    ///   lists them); a crawl whose start URLs all failed does not.
    /// - Throws: ``CrawlError`` when the site folder cannot be written, when every start URL
    ///   failed (with the first failure's cause), or when cancelled.
    public func run() async throws(CrawlError) -> CrawlReport {
        // With no snapshot to revalidate against, robots.txt's request needs nothing from the
        // disk: it leaves before the staging snapshot is made, and the first connection's
        // handshake runs while the run's folders and files are created (issue #27).
        let early = job.incremental && SnapshotStore.currentID(siteDirectory: job.siteDirectory) != nil
            ? nil : startRobots(previous: nil)
        let run: RunFiles
        do {
            run = try RunFiles(job: job, started: Date()) { previous in
                // A refresh knows how many URLs it revalidates: a large one takes the near link's
                // HTTP/1.1 connections at once, robots.txt's too.
                if let previous { client.expectTransfers(previous.manifest.count) }
                return early ?? startRobots(previous: previous)
            }
        } catch {
            early?.cancel()
            throw error
        }
        // The first request has left and the run's files exist: libxml2 may be opened now, on
        // libcurl's loading thread, before the first document arrives (LibXML2.openWhenAllowed).
        LibXML2.allowOpening()
        do throws(CrawlError) {
            let fetched = try await fetchPhase(run)
            afterFetching?()
            let assembled = try await assemble(run, fetched: fetched)
            let report = await makeReport(run, fetched: fetched, assembled: assembled)
            try publish(report, run: run)
            progress?.finish()
            // Everything the run knew (each URL, manifest entry and document, the resolution
            // cache) is freed on a thread of its own: tens of thousands of objects take
            // milliseconds to free, which the caller should not wait for (a one-shot `mirror`
            // exits right after). The box holds the only references, so the thread that
            // empties it frees them.
            let leftovers = Leftovers()
            leftovers.value = (consume fetched, consume assembled, resolutions.removeAll())
            Thread.detachNewThread { leftovers.value = nil }
            return report
        } catch {
            run.staging.discard()
            throw error
        }
    }

    /// What a finished run leaves to free (see the end of ``run()``).
    private final class Leftovers: @unchecked Sendable {
        var value: Any?
    }

    // MARK: Crawl phase

    /// Runs `jobs` workers; each takes the next URL from the frontier as soon as it is done with
    /// its last one. No central dispatcher: with a 2-thread cooperative pool busy parsing HTML, a
    /// single driver task could not refill the transfer slots fast enough under latency.
    ///
    /// A watcher task beside them ends the crawl early when the run-time budget runs out or the
    /// caller asks (``RunControl``): the frontier is halted (no new fetch), and after the grace
    /// period the transfers still in flight are cancelled (the workers, not the run: what was
    /// fetched is still published).
    func crawl(
        state: CrawlState, staging: StagingSnapshot, originals: OriginalsPack, previous: PreviousSnapshot?, started: Date
    ) async {
        let workers = max(1, job.jobs)
        let first = min(workers, Self.firstWorkers)
        let robotsAgent = job.respectRobots ? job.userAgent : nil
        let deadline = job.limits.runTime.map { started.addingTimeInterval($0) }
        let grace = job.limits.stopGrace
        let control = self.control
        let (events, sink) = AsyncStream<WorkerEvent>.makeStream()
        await state.enableSpawning(workers: first, most: workers) { sink.yield(.spawn($0)) }
        await withTaskGroup(of: Void.self) { group in
            var started = 0
            func startWorkers(_ count: Int) {
                for _ in 0..<count {
                    let worker = started
                    started += 1
                    group.addTask {
                        var sequence = 0
                        await state.runWorker(robotsAgent: robotsAgent) { item in
                            sequence += 1
                            let next = await self.process(item, download: (worker, sequence), state: state, staging: staging,
                                                          originals: originals, previous: previous, robotsAgent: robotsAgent)
                            if let progress = self.progress, progress.due() {
                                progress.update(await state.stats, failed: await state.failureCount)
                            }
                            return next
                        }
                        sink.yield(.finished)
                    }
                }
            }
            startWorkers(first)
            if deadline != nil || control != nil {
                group.addTask {
                    while !Task.isCancelled {
                        let reason: FinishReason? = if let deadline, Date() >= deadline { .runTimeLimit } else { control?.haltReason }
                        if let reason {
                            await state.halt(reason)
                            try? await Task.sleep(nanoseconds: UInt64(grace * 1_000_000_000))
                            sink.yield(.graceOver)
                            return
                        }
                        try? await Task.sleep(nanoseconds: 50_000_000)
                    }
                }
            }
            var running = first
            for await event in events {
                switch event {
                case .spawn(let count):
                    startWorkers(count)
                    running += count
                case .finished:
                    running -= 1
                case .graceOver:
                    group.cancelAll()  // the grace ran out: cancel what is still in flight
                }
                if running == 0 { break }
            }
            sink.finish()
            group.cancelAll()  // the watcher, if any
        }
    }

    /// What the crawl's task group hears from its workers and its watcher.
    enum WorkerEvent: Sendable {
        /// The crawl state asks for this many more workers.
        case spawn(Int)
        /// A worker's loop ended.
        case finished
        /// The watcher's grace period after a halt ran out.
        case graceOver
    }

    /// Workers started with the crawl; the crawl state asks for the others as URLs queue up
    /// (``CrawlState/enableSpawning(workers:most:spawn:)``).
    static let firstWorkers = 8

    /// Fetches one URL and records the outcome in `state`.
    ///
    /// - Returns: the worker's next action when the outcome was recorded together with asking
    ///   for it (a stored or revalidated URL), nil otherwise.
    private func process(
        _ item: FrontierItem, download: (worker: Int, sequence: Int), state: CrawlState, staging: StagingSnapshot,
        originals: OriginalsPack, previous: PreviousSnapshot?, robotsAgent: String?, revalidate: Bool = true
    ) async -> FrontierAction? {
        // Only a body too large for memory goes to this file (created when the body outgrows
        // the limit), then is renamed to its final name.
        var known = revalidate ? revalidatable(item.url, in: previous) : nil
        // A page stored in another render mode last time is fetched again in full.
        if known != nil, let previous, renderModeChanged(item, previous: previous) { known = nil }
        // The sitemap says the copy we have is current: no request at all (opt-in; a rendered
        // page also depends on what it loaded, so it is asked for as usual).
        if job.sitemaps.trustLastModified, rendering?.renders(item) != true, let known, let previous, sitemapDates.unchanged(item.url, since: known.fetchedAt),
           let next = try? await reuse(item, entry: known, previous: previous, state: state, staging: staging,
                                       originals: originals, robotsAgent: robotsAgent) {
            return next
        }
        let temporary = CrawlState.temporaryName(in: "_mirror/tmp", worker: download.worker, sequence: download.sequence)
        let temporaryPath = staging.fileSystem.absolutePath(temporary)
        var request = HTTPRequest(
            url: item.url.string, headers: job.headers,
            destination: .memoryUpTo(Self.inMemoryBodyLimit, thenFile: temporaryPath),
            maxBodyBytes: job.limits.maxFileSize, maxDecompressionRatio: job.limits.maxDecompressionRatio,
            timeouts: job.limits.timeouts, userAgent: job.userAgent)
        request.syncFile = false  // the snapshot is synced once before it is published
        request.bodyFiles = staging.fileSystem.downloads
        request.parsedURL = item.url
        request.capture = job.capture
        if let known {
            request.ifNoneMatch = known.etag
            request.ifModifiedSince = known.lastModified
        }
        if let referrer = item.referrerText { request.headers.append(("Referer", referrer)) }
        let scope = self.scope
        let isRequisite = item.isRequisite
        let depth = item.depth
        do {
            let result = try await client.fetch(
                request, security: security, redirects: job.redirects, retries: job.retries, cookies: job.cookies,
                follow: { target in
                    guard let url = WebURL(target) else { return false }
                    switch scope.classify(url, isRequisite: isRequisite, depth: depth) {
                    case .page, .requisite: return true
                    default: return false
                    }
                })
            let response = result.response
            // Without a redirect the final URL is the request's (not parsed again).
            let finalURL = result.finalURL == item.url.string ? item.url : WebURL(result.finalURL)?.withoutFragment ?? item.url
            if finalURL != item.url, (200...299).contains(response.status) {
                let fresh = await state.redirected(item, to: finalURL, status: 301)
                if !fresh {
                    SecureFileSystem.discard(temporaryPath: temporaryPath)
                    await state.completeAlias(item)
                    return nil
                }
            }
            switch response.status {
            case 304 where known != nil && result.chain.count == 1:
                // A rendered page is kept only if nothing it loaded has changed either.
                let rendered = rendering?.renders(item) == true
                if rendered, await mustRenderAgain(item.url) {
                    return await process(item, download: download, state: state, staging: staging, originals: originals,
                                         previous: previous, robotsAgent: robotsAgent, revalidate: false)
                }
                if rendered { await keepRendered(item.url) }
                // A 304 has no body, so no file was created (CurlTransfer opens it lazily).
                if let next = try await reuse(item, entry: known!, previous: previous!, state: state, staging: staging,
                                              originals: originals, robotsAgent: robotsAgent) {
                    return next
                }
                // The previous snapshot lost that file: fetched again, unconditionally.
                return await process(item, download: download, state: state, staging: staging, originals: originals,
                                     previous: previous, robotsAgent: robotsAgent, revalidate: false)
            case 200...299:
                let change: CrawlState.Change = previous?.entry(forKey: finalURL.string).map {
                    $0.sha256 == response.sha256 ? .unchanged : .changed
                } ?? .added
                if shouldRender(item, response: response) {
                    return try await renderAndStore(item, finalURL: finalURL, response: response, temporaryPath: temporaryPath,
                                                    state: state, staging: staging, originals: originals, robotsAgent: robotsAgent)
                }
                return try await store(item, finalURL: finalURL, response: response, temporaryPath: temporaryPath,
                                       state: state, staging: staging, originals: originals, change: change,
                                       robotsAgent: robotsAgent)
            case 300...399:
                SecureFileSystem.discard(temporaryPath: temporaryPath)
                let target = response.redirectLocation ?? "(no Location header)"
                await state.failed(item, .init(kind: .redirectOutOfScope, cause: "redirects to \(target), outside the scope"))
            case 404, 410:
                guard let status = previous?.entry(forKey: item.url.string)?.status, (200...299).contains(status) else { fallthrough }
                // Gone since the last snapshot: dropped from the new one, not a failure.
                SecureFileSystem.discard(temporaryPath: temporaryPath)
                await state.gone(item, status: response.status)
            default:
                SecureFileSystem.discard(temporaryPath: temporaryPath)
                await state.failed(item, .init(kind: .httpStatus(response.status), cause: "HTTP \(response.status)"))
            }
        } catch let error as HTTPError {
            SecureFileSystem.discard(temporaryPath: temporaryPath)
            await state.failed(item, CrawlFailure(error))
            // A body that could not be written because the disk is full ends the run.
            if case .io(let path, let code) = error, code == ENOSPC || code == EDQUOT {
                await state.abort(.diskFull(path: path))
            }
        } catch let error as StoreError {
            SecureFileSystem.discard(temporaryPath: temporaryPath)
            await state.failed(item, CrawlFailure(error))
            if case .diskFull = error { await state.abort(error) }
        } catch {
            SecureFileSystem.discard(temporaryPath: temporaryPath)
            await state.failed(item, .init(kind: .internal, cause: String(describing: error)))
        }
        return nil
    }

    /// Links the previous snapshot's copy of a `304` URL into the new snapshot: the rewritten
    /// file for plain files, the original bytes for documents (they are rewritten again, since
    /// the files they link to may have changed). Returns nil, with nothing done, when the
    /// previous snapshot no longer has that file; otherwise the worker's next action.
    private func reuse(
        _ item: FrontierItem, entry: ManifestEntry, previous: PreviousSnapshot, state: CrawlState, staging: StagingSnapshot,
        originals: OriginalsPack, robotsAgent: String?
    ) async throws -> FrontierAction? {
        guard let kind = try linkPrevious(entry, url: item.url, previous: previous, staging: staging, originals: originals,
                                          withRewrittenCopy: true)
        else { return nil }
        return await state.revalidatedThenNext(item, previous: entry, documentKind: kind.document, copyLinked: kind.copyLinked,
                                               robotsAgent: robotsAgent)
    }

    /// What ``linkPrevious(_:url:previous:staging:originals:withRewrittenCopy:)`` linked: a
    /// document (its original, to be rewritten again) or a plain file.
    struct LinkedKind {
        let document: CrawlState.DocumentKind?
        /// For a document: its previous rewritten copy is linked under its path too.
        var copyLinked = false
    }

    /// Links the previous snapshot's copy of `entry` into the new one: the rewritten file for
    /// plain files, the original bytes for documents (they are rewritten again, since the files
    /// they link to may have changed). Returns nil, with nothing done, when the previous snapshot
    /// no longer has that file.
    /// - Parameter withRewrittenCopy: for a document, also link the previous rewritten copy under
    ///   its path, now, while the crawl waits on the network: in an unchanged refresh the rewrite
    ///   phase keeps it (``reuseRewritten(_:previous:paths:nothingMoved:fileSystem:directories:)``)
    ///   instead of linking thousands of files after the crawl; otherwise it removes it first.
    func linkPrevious(
        _ entry: ManifestEntry, url: WebURL, previous: PreviousSnapshot, staging: StagingSnapshot, originals: OriginalsPack,
        withRewrittenCopy: Bool = false
    ) throws -> LinkedKind? {
        guard let localPath = entry.localPath else { return nil }
        let type = DocumentType(mediaType: entry.contentType.map(HTTPResponse.mediaType(of:)), path: url.path)
        var kind: CrawlState.DocumentKind?
        switch type {
        case .html: kind = .html
        case .css: kind = .css
        case .other: kind = nil
        }
        if kind != nil, let sha = entry.sha256 {
            // The original goes into the new pack (copied from the previous one, or linked from a
            // snapshot that kept originals as files).
            let copied = try previous.originals.map { try originals.copy(sha, from: $0) } ?? false
            if !copied {
                let raw = SecureFileSystem.rawPath(sha256: sha)
                try directories.ensure("_mirror/raw", in: staging.fileSystem)
                guard try staging.fileSystem.link(raw, from: previous.fileSystem) else { return nil }
            }
            guard withRewrittenCopy else { return LinkedKind(document: kind) }
            // A copy that cannot be linked is linked or written in the rewrite phase, as before.
            try directories.ensure(CreatedDirectories.parent(of: localPath), in: staging.fileSystem)
            let linked = (try? staging.fileSystem.link(localPath, from: previous.fileSystem)) ?? false
            return LinkedKind(document: kind, copyLinked: linked)
        } else {
            try directories.ensure(CreatedDirectories.parent(of: localPath), in: staging.fileSystem)
            guard try staging.fileSystem.link(localPath, from: previous.fileSystem) else { return nil }
        }
        return LinkedKind(document: kind)
    }

    /// Bodies up to this size are received in memory and written once, under their final name
    /// (or, for documents, into the originals pack): no temporary file, no rename, no second read.
    /// Larger ones stream to a temporary file. 256 transfers hold at most 16 MiB this way.
    static let inMemoryBodyLimit = 64 * 1024

    /// Stores a fetched file (and, for a document, its original and prepared rewrite), and
    /// offers its links.
    /// - Parameters:
    ///   - extraLinks: links besides the document's own (render mode: what the page loaded).
    ///   - recordOnly: record the outcome without asking for the worker's next action (a
    ///     response render mode claimed); the returned action is then `.wait` and meaningless.
    func store(
        _ item: FrontierItem, finalURL: WebURL, response: HTTPResponse, temporaryPath: String,
        state: CrawlState, staging: StagingSnapshot, originals: OriginalsPack, change: CrawlState.Change,
        robotsAgent: String?, extraLinks: [DiscoveredLink] = [], recordOnly: Bool = false
    ) async throws -> FrontierAction {
        let contentType = response.headers["Content-Type"]
        let localPath = mapper.relativePath(for: finalURL, contentType: contentType)
        let type = DocumentType(mediaType: response.mediaType, path: finalURL.path)
        let downloaded = response.bodyFile != nil
        // Documents are parsed from the download before it moves (no second folder walk).
        let analysis: DocumentPipeline.Analysis
        switch type {
        case .html where response.bodyBytes > job.limits.maxHTMLBytes, .other:
            analysis = DocumentPipeline.Analysis()
        case .html, .css:
            let maxURLLength = job.limits.maxURLLength
            let cache = resolutions
            if downloaded {
                // Too large to be received in memory, so long to parse: on the parsing pool, not on a
                // cooperative thread. The job reads the file itself, so a queued job holds a path,
                // not the document.
                analysis = try await ParsingPool.shared.run {
                    try DocumentPipeline.analyse(try SecureFileSystem.readFile(atPath: temporaryPath), type: type, contentType: contentType, url: finalURL,
                                     maxURLLength: maxURLLength, cache: cache)
                }
            } else {
                analysis = try DocumentPipeline.analyse(response.body, type: type, contentType: contentType, url: finalURL,
                                            maxURLLength: maxURLLength, cache: cache)
            }
        }
        let (links, kind, draft) = (analysis.links + extraLinks, analysis.kind, analysis.draft)
        let fileSystem = staging.fileSystem
        if downloaded {
            try directories.ensure(CreatedDirectories.parent(of: localPath), in: fileSystem)
            try fileSystem.moveIn(temporaryPath, as: localPath)
        } else if kind != nil {
            // A document in memory is stored as its original only, in the pack; the rewrite
            // writes its file.
            try originals.append(response.body, sha256: response.sha256)
        } else {
            try directories.ensure(CreatedDirectories.parent(of: localPath), in: fileSystem)
            try fileSystem.createFile(response.body, at: localPath, replacing: true)
        }
        if recordOnly {
            await state.stored(item, finalURL: finalURL, localPath: localPath, response: response, links: links, documentKind: kind,
                               change: change, rewrite: draft, originalOnly: !downloaded)
            return .wait
        }
        return await state.storedThenNext(item, finalURL: finalURL, localPath: localPath, response: response, links: links,
                                          documentKind: kind, change: change, rewrite: draft, originalOnly: !downloaded,
                                          robotsAgent: robotsAgent)
    }

    /// Writes the snapshot's manifest; returns the error instead of throwing it (it runs
    /// beside the rewrite, whose failures decide first).
    static func save(_ manifest: ManifestRecords, to fileSystem: SecureFileSystem) -> StoreError? {
        do {
            try manifest.save(to: fileSystem, at: "_mirror/manifest.tsv")
            return nil
        } catch {
            return error
        }
    }

    /// "0.123 s": for phase timings in debug lines.
    static func seconds(since start: Date) -> String {
        NumberText.fixed(Date().timeIntervalSince(start), fractionDigits: 3) + " s"
    }

    /// The start URLs that failed and have no local path (not even through a redirect).
    func startURLFailures(state: CrawlState) async -> [(url: String, failure: CrawlFailure)] {
        let paths = await state.localPaths()
        var failed: [(url: String, failure: CrawlFailure)] = []
        for url in job.startURLs where paths.path(ofKey: url.string) == nil {
            if let failure = await state.failure(forKey: url.string) { failed.append((url.string, failure)) }
        }
        return failed
    }

}
