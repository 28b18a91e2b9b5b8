import Foundation
import MirrorArchive
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorScheduler
import MirrorStore

/// One unattended-safe run of one site, shared by `mirror`, `refresh` and config runs:
/// take the site lock, remove leftovers of killed runs, crawl (incrementally against the current
/// snapshot), publish, apply retention, and append a record to the site's history — also when
/// the run fails, so that `snapshots` shows every attempt.
struct SiteRun {
    let job: SiteJob
    let security: SecurityPolicy
    let client: HTTPClient
    let logger: Logger
    /// Snapshots to keep after publishing (nil: keep all).
    let keep: Int?
    /// Warnings to carry into the report (e.g. the client certificate expires soon).
    var warnings: [String] = []
    /// Asks the crawl to stop early and publish what it has (a first signal).
    var control: RunControl? = nil
    /// Archive output (WARC files from the crawl's fetches); nil or disabled: none.
    var archive: ArchiveConfig?
    /// Whether the client serves this run alone, so that its connections may start closing
    /// as soon as the crawl will fetch nothing more (``MirrorHTTP/HTTPClient/beginShutdown()``;
    /// the caller still calls `shutdown()`). Not for `demo`, whose server fetches live with it.
    var closesClientWhenFetched = false

    /// - Returns: the exit code: 0 complete, 10 partial, or the failure's own code.
    /// - Throws: ``CrawlError/cancelled`` when interrupted; other failures are logged,
    ///   recorded in the history and returned as an exit code.
    func execute(command: String) async throws -> ExitCode {
        let started = Date()
        let history = RunHistory(siteDirectory: job.siteDirectory)
        let lock: SiteLock
        do {
            lock = try SiteLock.acquire(siteDirectory: job.siteDirectory, site: job.name, command: command)
        } catch {
            let summary = if case .lockHeld = error { error.summary } else { "\(job.name): \(error.summary)" }
            logger.error(summary, hint: CommandLineHint.hint(for: error), category: error.category.rawValue)
            if case .lockHeld = error { return .busy }
            return .io
        }
        defer { lock.release() }
        let store = try? SnapshotStore(siteDirectory: job.siteDirectory)
        if let removed = try? store?.cleanLeftovers(), !removed.isEmpty {
            logger.info("\(job.name): removed \(removed.count) partial snapshot(s) left by an interrupted run")
        }
        var archiveSink: ArchiveSink?
        do {
            let progress = logger.minimumLevel <= .info ? CrawlProgress(site: job.name, logger: logger) : nil
            var job = self.job
            job.warnings += warnings
            archiveSink = try openArchive(command: command)
            job.capture = archiveSink?.captureOptions
            // A client that serves this run alone closes its connections while the snapshot is
            // assembled and published, not after (issue #27).
            var afterFetching: (@Sendable () -> Void)?
            if closesClientWhenFetched {
                let client = self.client
                afterFetching = { client.beginShutdown() }
            }
            let crawler = try Crawler(job: job, security: security, client: client, logger: logger, progress: progress,
                                      control: control, afterFetching: afterFetching)
            let report = try await crawler.run()
            if let keep, let removed = try? store?.retain(keep: keep), !removed.isEmpty {
                logger.info("\(job.name): removed \(removed.count) old snapshot(s) (keep \(keep))")
            }
            var code = summarise(report)
            if let failed = await finishArchive(archiveSink) { code = failed }
            record(history, started: started, code: code, report: report, error: nil)
            return code
        } catch CrawlError.cancelled {
            _ = await finishArchive(archiveSink)
            record(history, started: started, code: .interrupted, report: nil, error: CrawlError.cancelled.summary)
            throw CrawlError.cancelled
        } catch let error as any DiagnosableError {
            _ = await finishArchive(archiveSink)
            logger.error("\(job.name): \(error.summary)", hint: CommandLineHint.hint(for: error), category: error.category.rawValue)
            let code = ExitCode(error.category)
            record(history, started: started, code: code, report: nil, error: error.summary)
            return code
        }
    }

    /// Logs a published run's summary and failures, and gives its exit code: a run halted by a
    /// signal says so (130) although it published; one that ran out of its time budget is
    /// partial (10), like one with failures.
    private func summarise(_ report: CrawlReport) -> ExitCode {
        logger.info(report.summaryLine)
        for failure in report.errors.prefix(20) { logger.warning("\(failure.url): \(failure.cause)") }
        if report.errors.count > 20 { logger.warning("… and \(report.errors.count - 20) more failures in the report") }
        if report.notFetchedCount > 0 {
            logger.warning("\(job.name): \(report.notFetchedCount) URL(s) not fetched before the run stopped (listed in the report)")
        }
        if report.finishReason == "interrupted" { return .interrupted }
        return report.failed > 0 || report.stoppedEarly ? .partial : .success
    }

    private func record(_ history: RunHistory, started: Date, code: ExitCode, report: CrawlReport?, error: String?) {
        let outcome: RunOutcome = code == .success ? .success
            : code == .partial || (code == .interrupted && report != nil) ? .partial : .failed
        let counts = report.map {
            RunRecord.Counts(added: $0.added, changed: $0.changed, removed: $0.removed, unchanged: $0.unchanged, failed: $0.failed)
        } ?? RunRecord.Counts()
        let entry = RunRecord(site: job.name, startedAt: started, finishedAt: Date(), outcome: outcome, exitCode: code.rawValue,
                              counts: counts, bytes: report?.bytes ?? 0, error: error, snapshot: report?.snapshot)
        do {
            try history.append(entry)
        } catch {
            logger.warning("\(job.name): could not write the run history: \(error.summary)")
        }
    }
}
