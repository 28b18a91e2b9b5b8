import Foundation
import MirrorCore
import MirrorDocument
import MirrorHTTP
import MirrorRender
import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

extension Crawler {
    // MARK: Start and end of a run

    /// Starts the browser for a run (before anything is fetched, so that a missing Chromium
    /// stops the run at once).
    /// - Throws: ``CrawlError/render(_:)``.
    func startRendering(state: CrawlState, staging: StagingSnapshot, originals: OriginalsPack, previous: PreviousSnapshot?)
        async throws(CrawlError)
    {
        guard let rendering else { return }
        let started: (isolation: BrowserIsolation, warning: String?)
        do {
            started = try await rendering.renderer.start()
        } catch {
            throw .render(error)
        }
        if let warning = started.warning { logger.warning("\(job.name): \(warning)") }
        rendering.begin(Rendering.Run(
            ledger: RenderLedger(scripts: rendering.settings.scripts, previous: previous?.renders), state: state, staging: staging,
            originals: originals, previous: previous, robotsAgent: job.respectRobots ? job.userAgent : nil,
            isolation: started.isolation))
    }

    /// Stops the browser, writes `_mirror/render.json`, and returns the report's part.
    func finishRendering(staging: StagingSnapshot) async -> (summary: RenderSummary, failures: [CrawlReport.Failure])? {
        guard let rendering, let run = rendering.run else { return nil }
        await Self.offPool { rendering.renderer.shutdown() }
        do {
            try await run.ledger.save(to: staging.fileSystem)
        } catch {
            logger.warning("\(job.name): render mode's record could not be written (a refresh renders every page again): \(error)")
        }
        let summary = await run.ledger.summary(isolation: run.isolation, cacheHits: rendering.cache.hits,
                                               browserStarts: rendering.renderer.browserStarts)
        logger.info("\(job.name): render mode: \(summary.rendered) pages rendered, \(summary.unchanged) kept unchanged, "
                    + "\(summary.budgetCut.count) cut by a budget, \(summary.failed) failed, \(summary.refusedCount) requests refused")
        return (summary, await run.ledger.failures)
    }

    /// Runs blocking work (joining the browser's thread) on a thread of its own.
    static func offPool(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                work()
                continuation.resume()
            }
        }
    }

    // MARK: A page

    /// Whether a fetched page goes to the browser: a rendered page whose body is HTML small
    /// enough to parse.
    func shouldRender(_ item: FrontierItem, response: HTTPResponse) -> Bool {
        guard let rendering, rendering.run != nil, rendering.renders(item) else { return false }
        guard DocumentType(mediaType: response.mediaType, path: item.url.path) == .html else { return false }
        return response.bodyBytes <= job.limits.maxHTMLBytes
    }

    /// Renders a fetched page and stores what the browser built (or, with scripts kept, the
    /// page itself), with every response the page loaded; the rendered DOM's links feed the
    /// frontier. A page the browser cannot render is stored as fetched, and reported.
    func renderAndStore(
        _ item: FrontierItem, finalURL: WebURL, response: HTTPResponse, temporaryPath: String, state: CrawlState,
        staging: StagingSnapshot, originals: OriginalsPack, robotsAgent: String?
    ) async throws -> FrontierAction {
        guard let rendering, let run = rendering.run else { throw CrawlError.invalidJob("render mode was not started") }
        let body = response.bodyFile != nil ? try SecureFileSystem.readFile(atPath: temporaryPath) : response.body
        let recording = PageRecording()
        let broker = RenderBroker(crawler: self, rendering: rendering, run: run, page: item, documentURL: finalURL,
                                  document: response, documentBody: body, recording: recording)
        let result = await rendering.renderer.render(finalURL.string, handler: broker)
        let recorded = recording.recorded
        let page: RenderedPage
        switch result {
        case .failure(let failure):
            logger.warning("\(finalURL.string): \(failure); stored as fetched")
            await run.ledger.renderFailed(finalURL.string, failure, referrer: item.referrerText)
            await storeFrames([], documents: recorded.frames, page: item, run: run)
            return try await store(item, finalURL: finalURL, response: response, temporaryPath: temporaryPath, state: state,
                                   staging: staging, originals: originals, change: change(of: finalURL, sha256: response.sha256, run: run),
                                   robotsAgent: robotsAgent)
        case .success(let rendered):
            page = rendered
        }
        var stored = response
        var extra: [DiscoveredLink] = []
        switch rendering.settings.scripts {
        case .neutralise:
            stored.body = try ScriptNeutraliser.neutralise(page.html).bytes
            var headers = HTTPHeaders(response.headers.fields.filter { $0.name.lowercased() != "content-type" })
            headers.append(name: "Content-Type", value: "text/html; charset=utf-8")
            stored.headers = headers
        case .keep:
            stored.body = body
            // The shell links little: the links of what the scripts built are followed too.
            let analysis = try DocumentPipeline.analyse(page.html, type: .html, contentType: "text/html; charset=utf-8", url: finalURL,
                                            maxURLLength: job.limits.maxURLLength, cache: resolutions)
            extra += analysis.links
        }
        stored.bodyFile = nil
        stored.bodyBytes = Int64(stored.body.count)
        stored.sha256 = SHA256Digest.hex(stored.body)
        if response.bodyFile != nil { SecureFileSystem.discard(temporaryPath: temporaryPath) }
        // What the page loaded is part of it: listed in its manifest row (a refresh revalidates
        // them), and followed if the frontier does not have them yet.
        var seen = Set<String>()
        // (A redirect's target is a dependency of its own; the redirect is not offered: one out of
        // scope would count as a failed URL of the crawl.)
        for dependency in recorded.dependencies where dependency.method == "GET" && (200...299).contains(dependency.status) {
            guard seen.insert(dependency.url).inserted, let url = WebURL(dependency.url) else { continue }
            extra.append(DiscoveredLink(url: url, isRequisite: true))
        }
        for target in page.navigations {
            if let url = WebURL(target)?.withoutFragment { extra.append(DiscoveredLink(url: url, isRequisite: false)) }
        }
        await storeFrames(page.frames, documents: recorded.frames, page: item, run: run)
        let record = RenderRecord(
            url: finalURL.string, scripts: rendering.settings.scripts,
            completion: page.completion.isBudgetCut ? "budget-cut: \(Self.limit(page.completion))" : "idle", seconds: page.seconds,
            document: .init(method: "GET", url: finalURL.string, status: response.status, sha256: response.sha256,
                            etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"]),
            dependencies: recorded.dependencies)
        await run.ledger.rendered(record, completion: page.completion)
        if page.completion.isBudgetCut {
            logger.info("\(finalURL.string): rendering ended by its \(Self.limit(page.completion)) budget; what was rendered is kept")
        }
        return try await store(item, finalURL: finalURL, response: stored, temporaryPath: temporaryPath, state: state,
                               staging: staging, originals: originals, change: change(of: finalURL, sha256: stored.sha256, run: run),
                               robotsAgent: robotsAgent, extraLinks: extra)
    }

    static func limit(_ completion: RenderedPage.Completion) -> String {
        if case .budgetCut(let limit) = completion { return limit.rawValue }
        return "none"
    }

    private func change(of url: WebURL, sha256: String, run: Rendering.Run) -> CrawlState.Change {
        run.previous?.entry(forKey: url.string).map { $0.sha256 == sha256 ? .unchanged : .changed } ?? .added
    }

    /// Stores each same-origin frame as the browser built it (scripts neutralised as for the
    /// page), and the other frame documents the page loaded as they were fetched.
    private func storeFrames(_ frames: [RenderedFrame], documents: [WebURL: HTTPResponse], page: FrontierItem, run: Rendering.Run) async {
        var done = Set<WebURL>()
        for frame in frames {
            guard let url = WebURL(frame.url)?.withoutFragment, done.insert(url).inserted, var response = documents[url] else { continue }
            if rendering?.settings.scripts == .neutralise, let inert = try? ScriptNeutraliser.neutralise(frame.html) {
                response.body = inert.bytes
                var headers = HTTPHeaders(response.headers.fields.filter { $0.name.lowercased() != "content-type" })
                headers.append(name: "Content-Type", value: "text/html; charset=utf-8")
                response.headers = headers
                response.bodyBytes = Int64(inert.bytes.count)
                response.sha256 = SHA256Digest.hex(inert.bytes)
            }
            await storeClaimed(url, response: response, page: page, run: run)
        }
        for (url, response) in documents where !done.contains(url) {
            await storeClaimed(url, response: response, page: page, run: run)
        }
    }

    /// Stores a response a rendering page loaded, once: the frontier hands the URL out to us
    /// (``Frontier/claim(_:isRequisite:depth:referrer:)``), or it is stored (or being fetched)
    /// already.
    func storeClaimed(_ url: WebURL, response: HTTPResponse, page: FrontierItem, run: Rendering.Run) async {
        guard let item = await run.state.claim(url, isRequisite: true, depth: page.depth, referrer: page.url) else { return }
        do {
            _ = try await store(item, finalURL: url, response: response, temporaryPath: "", state: run.state, staging: run.staging,
                                originals: run.originals, change: change(of: url, sha256: response.sha256, run: run),
                                robotsAgent: nil, recordOnly: true)
        } catch let error as StoreError {
            await run.state.failed(item, CrawlFailure(error))
            if case .diskFull = error { await run.state.abort(error) }
        } catch {
            await run.state.failed(item, .init(kind: .internal, cause: String(describing: error)))
        }
    }

    /// Keeps a POST's answer for replay: its body as `_mirror/replay/<sha256>`.
    func storeReplay(_ url: WebURL, method: String, requestSHA256: String?, response: HTTPResponse, page: WebURL,
                     run: Rendering.Run) async {
        let path = ReplayEntry.file(sha256: response.sha256)
        do throws(StoreError) {
            try directories.ensure("_mirror/replay", in: run.staging.fileSystem)
            try run.staging.fileSystem.createFile(response.body, at: path)
        } catch .io(_, _, EEXIST) {
            // The same answer is kept already.
        } catch {
            logger.debug("\(url.string): a \(method) answer could not be kept for replay: \(error)")
            return
        }
        await run.ledger.addReplay(ReplayEntry(method: method, url: url.string, requestSHA256: requestSHA256, status: response.status,
                                               contentType: response.headers["Content-Type"], sha256: response.sha256,
                                               page: page.string))
    }

    // MARK: Refresh

    /// Whether a rendered page whose document answered 304 must be rendered again: it was not
    /// rendered last time (or with other scripts), or something it loaded has changed. Each
    /// dependency is asked for conditionally (its `ETag`/`Last-Modified`), or compared by hash;
    /// a POST is sent again with its recorded body (one too large to keep makes the page
    /// render again). Each dependency is checked once per run, whatever number of pages share it.
    func mustRenderAgain(_ url: WebURL) async -> Bool {
        guard let rendering, let run = rendering.run else { return false }
        guard let record = run.ledger.previous[url.string], record.scripts == rendering.settings.scripts else { return true }
        let unique = Array(Set(record.dependencies))
        return await withTaskGroup(of: Bool.self) { group in
            var changed = false
            var next = 0
            func add() {
                guard next < unique.count else { return }
                let dependency = unique[next]
                next += 1
                group.addTask { await rendering.check(dependency) { await self.hasChanged(dependency) } }
            }
            for _ in 0..<8 { add() }
            for await answer in group {
                if answer {
                    changed = true
                    group.cancelAll()
                    break
                }
                add()
            }
            return changed
        }
    }

    private func hasChanged(_ dependency: RenderRecord.Dependency) async -> Bool {
        guard dependency.status != 0 else { return true }  // it failed last time: try the page again
        let method: HTTPRequest.Method
        switch dependency.method {
        case "GET": method = .get
        case "HEAD": method = .head
        case "POST": method = .post
        default: return true
        }
        var request = HTTPRequest(url: dependency.url, method: method, headers: job.headers, destination: .discard,
                                  maxBodyBytes: job.limits.maxFileSize, timeouts: job.limits.timeouts, userAgent: job.userAgent)
        if method == .post {
            guard let text = dependency.requestBody, let body = Data(base64Encoded: text) else { return true }
            request.body = Array(body)
        } else {
            request.ifNoneMatch = dependency.etag
            request.ifModifiedSince = dependency.lastModified
        }
        var redirects = job.redirects
        redirects.follow = false
        guard let result = try? await client.fetch(request, security: security, redirects: redirects,
                                                   retries: method == .post ? .none : job.retries, cookies: job.cookies)
        else { return true }
        let response = result.response
        if response.status == 304, dependency.etag != nil || dependency.lastModified != nil { return false }
        if response.status != dependency.status { return true }
        if (300...399).contains(response.status) { return response.redirectLocation != dependency.location }
        return response.sha256 != dependency.sha256
    }

    /// A rendered page kept as it was: its record and replay files go into the new snapshot.
    func keepRendered(_ url: WebURL) async {
        guard let rendering, let run = rendering.run else { return }
        for entry in await run.ledger.keptUnchanged(url.string) {
            guard let previous = run.previous else { continue }
            let path = ReplayEntry.file(sha256: entry.sha256)
            try? directories.ensure("_mirror/replay", in: run.staging.fileSystem)
            _ = try? run.staging.fileSystem.link(path, from: previous.fileSystem)
        }
    }

    /// Whether the previous snapshot's copy of a page was made in another mode than this run
    /// would make it (rendered then and not now, or the other way round, or with the other
    /// script policy): it is then fetched again in full instead of revalidated.
    func renderModeChanged(_ item: FrontierItem, previous: PreviousSnapshot) -> Bool {
        let before = previous.renderedPages[item.url.string]
        guard let rendering, rendering.renders(item) else { return before != nil }
        return before == nil || before?.scripts != rendering.settings.scripts
    }
}
