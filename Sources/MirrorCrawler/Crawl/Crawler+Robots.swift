import Foundation
import MirrorCore
import MirrorHTTP
import MirrorStore

/// robots.txt: fetched as soon as the staging snapshot exists, applied before the crawl.
extension Crawler {
    /// What the start origins' robots.txt files said: the rules to apply, by origin, and the
    /// files to keep in the new snapshot for the next run's conditional requests.
    struct RobotsAnswers: Sendable {
        var rules: [String: RobotsTxt] = [:]
        var kept = StoredRobots()
    }

    /// Starts fetching robots.txt (``fetchRobots(previous:)``) on a task of its own, so that its
    /// first connection's handshake runs while the run's scratch files are created
    /// (``RunFiles``). Nil when the run ignores robots.txt, and in render mode, whose browser
    /// starts before anything is fetched.
    func startRobots(previous: PreviousSnapshot?) -> Task<RobotsAnswers, Never>? {
        guard job.respectRobots, rendering == nil else { return nil }
        return Task { await self.fetchRobots(previous: previous) }
    }

    /// The answers of the task ``startRobots(previous:)`` started, or fetched now when none
    /// was; cancelling the caller cancels the fetch.
    func robotsAnswers(_ pending: Task<RobotsAnswers, Never>?, previous: PreviousSnapshot?) async -> RobotsAnswers {
        guard let pending else { return await fetchRobots(previous: previous) }
        return await withTaskCancellationHandler { await pending.value } onCancel: { pending.cancel() }
    }

    /// Fetches robots.txt of every start origin, conditionally when the previous snapshot
    /// kept it (``StoredRobots``): a `304` reuses the stored body. Touches no file: the
    /// answers are applied by ``applyRobots(_:to:staging:)``.
    func fetchRobots(previous: PreviousSnapshot?) async -> RobotsAnswers {
        var origins: [String: WebURL] = [:]
        for url in job.startURLs { origins[url.origin] = url }
        let known = previous.map { StoredRobots.load(from: $0.fileSystem) } ?? StoredRobots()
        var answers = RobotsAnswers()
        for (origin, url) in origins {
            guard let robotsURL = url.resolve("/robots.txt") else { continue }
            var request = HTTPRequest(url: robotsURL.string, headers: job.headers, maxBodyBytes: 512 * 1024, userAgent: job.userAgent)
            request.timeouts = job.limits.timeouts
            request.capture = job.capture
            let stored = archiveHolds(robotsURL.string) ? known.origins[origin] : nil
            request.ifNoneMatch = stored?.etag
            request.ifModifiedSince = stored?.lastModified
            do {
                let result = try await client.fetch(request, security: security, redirects: job.redirects, retries: job.retries, cookies: job.cookies)
                let response = result.response
                let status = response.status
                if status == 304, let stored, result.chain.count == 1 {
                    answers.rules[origin] = RobotsTxt.parse(Array(stored.body))
                    answers.kept.origins[origin] = stored
                } else if (200...299).contains(status) {
                    answers.rules[origin] = RobotsTxt.parse(response.body)
                    if response.headers["ETag"] != nil || response.headers["Last-Modified"] != nil {
                        answers.kept.origins[origin] = .init(etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"],
                                                             body: Data(response.body))
                    }
                } else if status >= 500 {
                    // RFC 9309 §2.3.1.4: an unreachable robots.txt means "disallow all".
                    logger.warning("\(robotsURL.string) answered HTTP \(status): robots.txt treats the site as off limits (RFC 9309); pass --ignore-robots to mirror anyway")
                    answers.rules[origin] = RobotsTxt.parse(Array("User-agent: *\nDisallow: /\n".utf8))
                }
            } catch {
                logger.debug("robots.txt for \(origin) unavailable: \(error.summary)")
            }
        }
        return answers
    }

    /// Gives the crawl the rules, and keeps the files in the new snapshot for the next run.
    func applyRobots(_ answers: RobotsAnswers, to state: CrawlState, staging: StagingSnapshot) async {
        for (origin, rules) in answers.rules { await state.setRobots(rules, origin: origin) }
        if !answers.kept.origins.isEmpty {
            do { try answers.kept.save(to: staging.fileSystem) } catch { logger.debug("robots.txt not kept for the next run: \(error)") }
        }
    }
}
