import Foundation
import MirrorCore
import MirrorStore

/// The phases of ``Crawler/run()``: fetch, assemble, report, publish.
extension Crawler {
    /// The files a run works on: the site's store, its staging snapshot with the originals
    /// pack, and the previous snapshot to revalidate against.
    struct RunFiles: Sendable {
        let started: Date
        let store: SnapshotStore
        let staging: StagingSnapshot
        let originals: OriginalsPack
        /// Where the crawl keeps its per-URL records (``CrawlSpills``), in `_mirror/tmp/`.
        let spills: CrawlSpills
        let previous: PreviousSnapshot?
        /// robots.txt being fetched while the scratch files were created, if it was started.
        let robots: Task<RobotsAnswers, Never>?

        /// Creates the staging snapshot and the crawl's scratch files. `beforeScratchFiles` runs
        /// once the staging snapshot exists and the previous one is loaded: a refresh's first
        /// requests, conditional on what the previous snapshot kept, can leave then
        /// (``Crawler/startRobots(previous:)``; a first run's left before); the task it returns
        /// is cancelled if the files cannot be created.
        init(job: SiteJob, started: Date,
             beforeScratchFiles: (PreviousSnapshot?) -> Task<RobotsAnswers, Never>? = { _ in nil }) throws(CrawlError) {
            self.started = started
            do {
                store = try SnapshotStore(siteDirectory: job.siteDirectory)
                staging = try store.begin(now: started)
            } catch {
                throw .store(error)
            }
            previous = job.incremental ? PreviousSnapshot.load(from: store) : nil
            robots = beforeScratchFiles(previous)
            do {
                try staging.fileSystem.createDirectory("_mirror/tmp")
                originals = try OriginalsPack.create(in: staging.fileSystem)
                spills = try CrawlSpills.create(in: staging.fileSystem)
                // A revalidated URL's entry is its previous line with a new fetch time.
                if let previous { spills.manifest.carryLines(from: previous.manifest) }
            } catch {
                robots?.cancel()
                throw .store(error)
            }
        }
    }

    /// URLs in flight beyond the HTTP client's window (``MirrorHTTP/HTTPClient/transferWindow``):
    /// those being parsed and recorded while the window's transfers run.
    static let activeMargin = 16

    /// The most URLs in flight for a client window of `window` transfers.
    static func activeLimit(window: Int) -> Int {
        window > Int.max - activeMargin ? .max : window + activeMargin
    }

    /// What the fetch phase leaves: the crawl's state, render mode's summary, and the warnings
    /// of its first steps.
    struct Fetched: Sendable {
        let state: CrawlState
        let rendered: (summary: RenderSummary, failures: [CrawlReport.Failure])?
        let warnings: [String]
    }

    /// The browser, robots.txt, sitemaps and the crawl itself.
    /// - Throws: ``CrawlError/render(_:)`` without a browser, ``CrawlError/store(_:)`` when the
    ///   disk filled, ``CrawlError/cancelled`` for a cancelled or interrupted first run.
    func fetchPhase(_ run: RunFiles) async throws(CrawlError) -> Fetched {
        var frontier = Frontier(scope: scope, limits: FrontierLimits(
            maxPages: job.limits.maxPages, maxBytes: job.limits.maxBytes, maxURLLength: job.limits.maxURLLength,
            traps: job.traps), texts: run.spills.urls)
        frontier.seed(job.startURLs)
        let client = self.client
        // What the last run left stale is revalidated before anything else.
        if let previous = run.previous { frontier.seedFirst(previous.staleItems(in: scope)) }
        let state = CrawlState(frontier: frontier, spills: run.spills, activeLimit: { Self.activeLimit(window: client.transferWindow) },
                               keepsPathHashes: run.previous != nil, announceKnown: { client.expectTransfers($0) })
        // The browser first: without it, render mode fetches nothing at all.
        do {
            try await startRendering(state: state, staging: run.staging, originals: run.originals, previous: run.previous)
        } catch {
            if let rendering { await Self.offPool { rendering.renderer.shutdown() } }
            throw error
        }
        if job.respectRobots {
            await applyRobots(await robotsAnswers(run.robots, previous: run.previous), to: state, staging: run.staging)
        }
        let warnings = (job.sitemaps.enabled ? await seedFromSitemaps(state: state) : []) + (await applyCrawlDelays(state: state))

        await crawl(state: state, staging: run.staging, originals: run.originals, previous: run.previous, started: run.started)
        let rendered = await finishRendering(staging: run.staging)
        logger.debug("\(job.name): crawl phase \(Self.seconds(since: run.started))")
        if let fatal = await state.fatal { throw .store(fatal) }
        let halted = await state.haltReason
        if Task.isCancelled || (halted == .interrupted && run.previous == nil && !job.publishPartial) {
            throw .cancelled
        }
        return Fetched(state: state, rendered: rendered, warnings: warnings)
    }

    /// Below these (bytes downloaded, URLs stored), the snapshot's files are not written out
    /// before the publication: the early `syncfs` then has little to overlap with, and the
    /// rewrite's file operations waited on it instead. Go's specification (one page of 262 KB,
    /// where an `unlink` of the rewrite blocked 0.6 ms): from the last response to exit 10.5
    /// against 11.0 ms without it; Writing R Extensions (one page of 1 MB) gains from it, 16.9
    /// against 18.7 ms (medians of 24 alternating runs each; issue #27).
    static let earlyFlushBytes: Int64 = 512 << 10
    static let earlyFlushFiles = 256

    /// Whether the assembly starts writing the snapshot's files out before the publication.
    static func flushesEarly(bytes: Int64, files: Int) -> Bool {
        bytes >= earlyFlushBytes || files >= earlyFlushFiles
    }

    /// What the assembly leaves for the report.
    struct Assembled: Sendable {
        let rewritten: Int
        let carried: Int
        let warnings: [String]
        /// The run's path table, freed with the rest (``run()``).
        let paths: LocalPaths
    }

    /// Makes the snapshot whole: the previous copy of what an early stop did not reach, the
    /// originals' index, the placeholders of what is linked but not mirrored, every document
    /// rewritten, the manifest and the root index.
    /// - Throws: ``CrawlError/startFailed(url:failure:)`` when every start URL failed;
    ///   ``CrawlError/store(_:)`` when a file of the snapshot could not be written (a full
    ///   disk during the rewrite publishes nothing: a half-rewritten copy would link to the origin).
    func assemble(_ run: RunFiles, fetched: Fetched) async throws(CrawlError) -> Assembled {
        let (state, staging) = (fetched.state, run.staging)
        let phaseStart = Date()
        // A run that stopped early keeps the previous copy of what it did not reach.
        var carried = 0
        do throws(StoreError) {
            if await state.haltReason != nil, let previous = run.previous {
                carried = try await carryOver(from: previous, state: state, staging: staging, originals: run.originals)
            }
            try run.originals.writeIndex(to: staging.fileSystem)
        } catch {
            throw .store(error)
        }
        // The downloads are final: a large snapshot's are written out while the links are
        // rewritten. A small one's go with the publication's sync.
        if await Self.flushesEarly(bytes: state.bytes, files: state.pages + state.requisites) { staging.beginFlush() }
        directories.removeEmpty(in: staging.fileSystem)
        let startFailures = await startURLFailures(state: state)
        if startFailures.count == job.startURLs.count, let first = startFailures.first {
            throw .startFailed(url: first.url, failure: first.failure)
        }
        let reserved = await state.reservePaths(mapper: mapper)
        if let fatal = await state.fatal { throw .store(fatal) }
        let paths = await state.localPaths()
        // The crawl's parsers freed their buffers: their pages go back before the rewrite
        // allocates its own, so that the two phases' peaks do not add up (issue #27).
        AllocatorPolicy.returnFreedMemory()
        progress?.phase("rewriting links")
        // Placeholders go to paths no stored file has: written beside the rewrite.
        async let placeholders = Result { () throws(StoreError) in
            try writePlaceholders(for: reserved, in: staging.fileSystem, date: run.started)
        }
        // The manifest is final now: it is written while the documents are rewritten.
        async let manifestSaved = Self.save(run.spills.manifest, to: staging.fileSystem)
        let (rewritten, rewriteFailures) = await rewriteDocuments(
            state: state, staging: staging, originals: run.originals, paths: paths, previous: run.previous)
        let manifestError = await manifestSaved
        var warnings: [String] = job.warnings + fetched.warnings + (await politenessNotes())
        switch await placeholders {
        case .success(let (failed, first)):
            // A placeholder only explains a missing page: the snapshot is complete without it.
            if let first {
                warnings.append("\(failed) page(s) explaining why a linked URL is not mirrored could not be written, e.g. \(first.summary)")
            }
        case .failure(let error):
            throw .store(error)
        }
        logger.debug("\(job.name): rewrite phase \(Self.seconds(since: phaseStart)) (\(rewritten) documents)")
        if let full = rewriteFailures.first(where: { if case .diskFull = $0.error { true } else { false } }) {
            throw .store(full.error)
        }
        if let first = rewriteFailures.first {
            warnings.append("\(rewriteFailures.count) document(s) could not be rewritten and keep their original links, e.g. \(first.path): \(first.error.summary)")
        }
        do throws(StoreError) {
            if let manifestError { throw manifestError }
            try writeRootIndex(staging: staging, paths: paths)
            run.spills.remove()
            staging.fileSystem.removeEmptyDirectory("_mirror/tmp")
        } catch {
            throw .store(error)
        }
        return Assembled(rewritten: rewritten, carried: carried, warnings: warnings, paths: paths)
    }

    /// The run's `report.json`.
    func makeReport(_ run: RunFiles, fetched: Fetched, assembled: Assembled) async -> CrawlReport {
        let state = fetched.state
        let finished = Date()
        let failures = await state.failures + (fetched.rendered?.failures ?? [])
        var byKind: [String: Int] = [:]
        for failure in failures { byKind[failure.kind, default: 0] += 1 }
        let finishReason = await state.finishReason ?? .exhausted
        let unfetched = finishReason.isEarly ? await state.unfetched.map(\.url.string).sorted() : []
        var warnings = assembled.warnings
        switch finishReason {
        case .exhausted: break
        case .pageLimit: warnings.append("stopped early: the page limit (--max-pages) was reached")
        case .byteLimit: warnings.append("stopped early: the byte limit (--max-bytes) was reached")
        case .cancelled: warnings.append("stopped early: cancelled")
        case .runTimeLimit, .interrupted:
            let why = finishReason == .runTimeLimit ? "the run-time budget (--max-run-time) ran out" : "the run was interrupted"
            warnings.append("stopped early: \(why); \(unfetched.count) URL(s) not fetched"
                            + (assembled.carried > 0 ? ", \(assembled.carried) kept from the previous snapshot unrevalidated (stale)" : ""))
        }
        let held = await state.heldBackUnfetched()
        let statuses = await state.statuses()
        var heldByRule: [String: Int] = [:]
        for entry in held { heldByRule[entry.held.rule.rawValue, default: 0] += 1 }
        var report = CrawlReport(
            site: job.name, startURLs: job.startURLs.map(\.string), snapshot: run.staging.id,
            startedAt: run.started, finishedAt: finished, durationSeconds: finished.timeIntervalSince(run.started),
            finishReason: finishReason.rawValue,
            fetched: await state.pages + state.requisites, pages: await state.pages, requisites: await state.requisites,
            failed: failures.count, bytes: await state.bytes,
            added: await state.changes[.added] ?? 0, changed: await state.changes[.changed] ?? 0,
            unchanged: await state.changes[.unchanged] ?? 0,
            removed: run.previous.map { previous in previous.removedCount(hasStatus: statuses.hasStatus(fingerprint:)) } ?? 0,
            previousSnapshot: run.previous?.id, rewrittenDocuments: assembled.rewritten,
            errorsByKind: byKind, errors: failures, outOfScope: await state.outOfScopeList,
            outOfScopeCount: await state.outOfScopeCount, warnings: warnings,
            heldBack: held.prefix(CrawlReport.listLimit).map {
                CrawlReport.HeldBack(url: $0.url, rule: $0.held.rule.rawValue, detail: $0.held.detail, referrer: $0.held.referrer)
            },
            heldBackCount: held.count, heldBackByRule: heldByRule,
            notFetched: Array(unfetched.prefix(CrawlReport.listLimit)), notFetchedCount: unfetched.count, stale: assembled.carried,
            trapPeaks: await state.trapPeaks)
        report.proxy = client.proxySummary
        report.render = fetched.rendered?.summary
        return report
    }

    /// Writes the report and publishes the snapshot (synced, then made current).
    func publish(_ report: CrawlReport, run: RunFiles) throws(CrawlError) {
        var phaseStart = Date()
        let encoded: [UInt8]
        do {
            encoded = try report.jsonBytes()
        } catch {
            throw .store(.io(operation: "encode report", path: "_mirror/report.json", errno: 0))
        }
        do throws(StoreError) {
            try run.staging.fileSystem.write(encoded, to: "_mirror/report.json")
            logger.debug("\(job.name): manifest and report \(Self.seconds(since: phaseStart))")
            phaseStart = Date()
            try run.store.publish(run.staging)
            logger.debug("\(job.name): publish (sync and rename) \(Self.seconds(since: phaseStart))")
        } catch {
            throw .store(error)
        }
    }
}
