import Foundation
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorRender
import MirrorTLS

/// `mtls-mirror mirror URL...`: crawl a site over mTLS into an offline snapshot.
struct MirrorCommand {
    static let crawlOptions: [OptionSpec] = [
        OptionSpec("config", short: "c", value: "FILE", help: "With no URL: run the sites of FILE (default ./config.json)."),
        OptionSpec("site", value: "NAME", repeatable: true, values: .site, help: "With a config: run only these sites."),
        OptionSpec("output", short: "o", value: "DIR", help: "Output root (default ./output); the site goes to DIR/NAME/current."),
        OptionSpec("name", value: "NAME", help: "Site folder name (default: the start URL's host, with _PORT for other ports)."),
        OptionSpec("jobs", short: "j", value: "N", help: "Concurrent transfers at most, 1 to 1024 (default 256; only as many are in flight as the link needs, at least 16; over HTTP/2, up to 100 streams per connection)."),
        OptionSpec("depth", short: "l", value: "N", help: "Follow page links at most N levels from the start (default 20; 'inf' for no limit; requisites are always fetched)."),
        OptionSpec("include", value: "RULE", repeatable: true, help: "Only crawl pages whose path matches: a prefix (/docs/) or regex:PATTERN."),
        OptionSpec("exclude", value: "RULE", repeatable: true, help: "Never crawl pages whose path matches: a prefix or regex:PATTERN."),
        OptionSpec("no-parent", help: "Never ascend above the start URL's folder."),
        OptionSpec("requisite-hosts", value: "HOSTS", repeatable: true, help: "Also fetch page requisites (images, CSS, fonts…) from these hosts (comma-separated; host, host:port, *.domain)."),
        OptionSpec("max-pages", value: "N", help: "Fetch at most N URLs."),
        OptionSpec("max-bytes", value: "SIZE", help: "Fetch at most SIZE bytes in all (e.g. 2GiB)."),
        OptionSpec("max-file-size", value: "SIZE", help: "Skip bodies larger than SIZE (default 256MiB)."),
        OptionSpec("max-html-size", value: "SIZE", help: "Do not parse HTML larger than SIZE (default 32MiB); it is kept unrewritten."),
        OptionSpec("max-url-length", value: "N", help: "Ignore links longer than N bytes (default 8192)."),
        OptionSpec("max-run-time", value: "DURATION", help: "Time budget of the run (90s, 30m, 2h): then no new transfer starts, and what was fetched is published (exit 10); a refresh keeps the previous copy of the rest, marked stale."),
        OptionSpec("no-partial", help: "An interrupted first mirror publishes nothing (by default it publishes what it fetched, marked partial)."),
        OptionSpec("max-path-segments", value: "N", help: "Crawler traps: hold back pages whose path has more than N segments (default 20; 'off')."),
        OptionSpec("max-segment-repeats", value: "N", help: "Crawler traps: hold back pages whose path repeats one segment more than N times (default 2; 'off')."),
        OptionSpec("max-query-variants", value: "N", help: "Crawler traps: at most N distinct query strings per path, numbers counting as one (default 100; 'off')."),
        OptionSpec("max-growing-steps", value: "N", help: "Crawler traps: hold back a page once a value of its URL has grown N+1 times from page to page (default 3; 'off')."),
        OptionSpec("max-shape-chain", value: "N", help: "Crawler traps: hold back a page ending a chain of more than N same-shape pages, such as a calendar's next month (default 20; 'off')."),
        OptionSpec("no-trap-rules", help: "Switch off the crawler-trap rules above (the depth limit stays; --depth inf lifts it)."),
        OptionSpec("ignore-robots", help: "Do not honour robots.txt."),
        OptionSpec("sitemaps", help: "Also crawl the URLs of the sitemaps (robots.txt Sitemap: lines and /sitemap.xml; indexes and .gz), within the scope."),
        OptionSpec("sitemap-lastmod", help: "With --sitemaps, on a refresh: skip the request for a URL whose sitemap lastmod is not newer than the copy."),
        OptionSpec("full", help: "Download everything again instead of revalidating against the current snapshot."),
        OptionSpec("cookies", short: "b", value: "FILE", help: "Seed cookies from a Netscape cookie file (as curl -c writes); cookies set during the run are kept and sent back."),
        OptionSpec("header", short: "H", value: "'NAME: VALUE'", repeatable: true, help: "Add a request header to every request."),
        OptionSpec("user-agent", short: "A", value: "TEXT", help: "User-Agent (default mtls-mirror/VERSION)."),
        OptionSpec("max-redirs", value: "N", help: "Follow at most N redirects per URL (default 10)."),
        OptionSpec("allow-downgrade", help: "Follow redirects from https to plain http."),
        OptionSpec("retry", value: "N", help: "Retry 5xx, 429 and timeouts N times (default 2)."),
        OptionSpec("wait", value: "SECONDS", help: "Wait this long between the starts of two requests to one host."),
        OptionSpec("random-wait", help: "Vary each --wait (and Crawl-delay) between 0.5 and 1.5 times its length."),
        OptionSpec("host-rate", value: "N", help: "At most N requests per second to one host (fractions allowed: 0.5 is one every 2 s)."),
        OptionSpec("limit-rate", value: "SIZE", help: "Receive at most SIZE bytes per second in all (e.g. 500KB, 2MiB)."),
        OptionSpec("per-host", value: "N", help: "Connections per host at most (default 32; over HTTP/1.1 the concurrency per host; over HTTP/2 only as many as the streams need)."),
        OptionSpec("connect-timeout", value: "SECONDS", help: "Connect time limit (default 15)."),
        OptionSpec("idle-timeout", value: "SECONDS", help: "Fail a transfer slower than --min-rate for this long (default 30)."),
        OptionSpec("min-rate", value: "SIZE", help: "The floor rate per second over --idle-timeout (default 512; 0 only fails a transfer that stops)."),
        OptionSpec("header-timeout", value: "SECONDS", help: "Fail a response whose headers are not complete this long after the request (default 30)."),
        OptionSpec("max-time", value: "SECONDS", help: "Total time limit per transfer (default 600)."),
        OptionSpec("compressed-ratio", value: "N", help: "Fail bodies that decompress beyond N times their size (default 200)."),
    ] + renderOptions

    /// Render mode's options (any of them turns it on).
    static let renderOptions: [OptionSpec] = [
        OptionSpec("render", help: "Load pages in a headless Chromium (its every request answered over mTLS by mtls-mirror) and store what its scripts built."),
        OptionSpec("render-include", value: "RULE", repeatable: true, help: "Render only the pages whose path matches: a prefix or regex:PATTERN (implies --render)."),
        OptionSpec("render-exclude", value: "RULE", repeatable: true, help: "Never render the pages whose path matches (implies --render)."),
        OptionSpec("render-jobs", value: "N", help: "Pages rendered at once in one browser, 1 to 32 (default 4; implies --render)."),
        OptionSpec("render-timeout", value: "SECONDS", help: "Time budget of one page (default 15); then what was rendered is kept (implies --render)."),
        OptionSpec("render-timers", value: "SECONDS", help: "Page time its timers get after load and after settling (default 1; 0: the real clock's quiet period only; implies --render)."),
        OptionSpec("render-keep-scripts", help: "Store pages with their scripts; `serve` answers their calls from the recorded responses (implies --render)."),
    ]

    static let spec = CommandSpec(
        name: "mirror",
        summary: "mirror a site over mTLS into an offline copy (output/NAME/current)",
        usage: "mtls-mirror mirror URL... [-o DIR] [TLS options] [crawl options]\n       mtls-mirror mirror [--config FILE] [--site NAME]...",
        discussion: """
            Crawls breadth-first from the start URLs within the same scheme, host and port, fetches \
            every page requisite, rewrites every reference to a relative link, and publishes the copy \
            atomically as a new snapshot: DIR/NAME/current -> snapshots/ID. The client certificate is \
            sent only to the start URLs' origins (and --identity-host). Exit 0: complete; 10: published \
            but some URLs failed (see DIR/NAME/current/_mirror/report.json). With no URL, the sites of \
            ./config.json (or --config FILE) are mirrored, each with its own identity, trust table and scope.
            """,
        options: crawlOptions + archiveOptions + TLSOptions.specs,
        examples: [
            "mtls-mirror mirror https://intranet.example/ --cert me.p12 --pass-env P12_PASSWORD",
            "mtls-mirror mirror https://portal.example/docs/ --no-parent --depth 3 --cert me.crt --key me.key --cacert corp-ca.pem",
            "mtls-mirror mirror https://intranet.example/ --requisite-hosts cdn.example.com -j 16 -o /srv/mirrors",
            "mtls-mirror mirror https://intranet.example/ --warc --cert me.p12 --pass-env P12_PASSWORD   # also WARC 1.1",
        ])

    let arguments: ParsedArguments
    let logger: Logger
    /// Asks the run to stop early and publish what it has (a first signal).
    var control: RunControl? = nil

    func run() async throws -> ExitCode {
        if arguments.positionals.isEmpty {
            return try await ConfigRunner(arguments: arguments, logger: logger, control: control).mirrorAll()
        }
        var starts: [WebURL] = []
        for text in arguments.positionals {
            do {
                let url = try WebURL.parse(text)
                starts.append(url.withoutFragment)
            } catch {
                throw UsageError("\"\(text)\" is not a usable start URL: \(error.summary)", hint: "use an absolute https:// URL")
            }
        }
        let tls = try TLSOptions(arguments)
        var job = SiteJob(
            name: arguments.value("name") ?? SiteJob.defaultName(for: starts[0]),
            startURLs: starts, outputRoot: arguments.value("output") ?? "output")
        try Self.validateSiteName(job.name)
        try applyCrawlOptions(to: &job)

        let trust = ServerTrustManager(fallback: try tls.evaluator())
        let identity = try tls.loadIdentity(logger: logger)
        TLSWarmUp.start(trust: trust, hosts: Array(Set(starts.map(\.host))))
        let expiry = identity?.expiryWarning()
        if let expiry { logger.warning(expiry) }
        if tls.insecure {
            logger.warning("SERVER VERIFICATION IS DISABLED (--insecure): any server can impersonate the site and receive your client certificate")
        }
        let origins = Set(starts.map { "\($0.host):\($0.effectivePort)" })
        let security = SecurityPolicy(
            identity: identity, identityScope: HostScope(Array(origins) + tls.identityHosts),
            trust: trust)
        let client = HTTPClient(configuration: try .proxied(arguments, maxConnectionsPerHost: job.limits.perHostConnections,
                                                             maxTotalConnections: max(job.jobs, job.limits.perHostConnections),
                                                             politeness: job.politeness))
        defer { client.shutdown() }
        let code = try await SiteRun(job: job, security: security, client: client, logger: logger, keep: nil,
                                     warnings: expiry.map { [$0] } ?? [], control: control,
                                     archive: try Self.archive(arguments, configured: nil), closesClientWhenFetched: true)
            .execute(command: "mirror")
        if code == .success || code == .partial || code == .interrupted {
            logger.info("open \(job.siteDirectory)/current/index.html, or run `mtls-mirror serve -o \(job.outputRoot)`")
        }
        return code
    }

    static func validateSiteName(_ name: String) throws(UsageError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.count <= 64, name != ".", name != "..", name.allSatisfy({ allowed.contains($0) }) else {
            throw UsageError("--name \"\(name)\" is not a safe folder name", hint: "use 1-64 letters, digits, '.', '_' or '-'")
        }
    }

    /// The crawler-trap options: each sets or switches off one rule of ``MirrorCrawler/TrapRules``.
    private func applyTrapOptions(to job: inout SiteJob) throws(UsageError) {
        if arguments.flag("no-trap-rules") { job.traps = .off }
        if let limit = try arguments.limit("max-path-segments") { job.traps.maxPathSegments = limit }
        if let limit = try arguments.limit("max-segment-repeats") { job.traps.maxSegmentRepeats = limit }
        if let limit = try arguments.limit("max-query-variants") { job.traps.maxQueryVariants = limit }
        if let limit = try arguments.limit("max-growing-steps") { job.traps.maxGrowingSteps = limit }
        if let limit = try arguments.limit("max-shape-chain") { job.traps.maxShapeChain = limit }
    }

    private func applyCrawlOptions(to job: inout SiteJob) throws {
        if let n = try arguments.int("jobs") { guard SiteJob.jobsRange.contains(n) else {
                throw UsageError("--jobs must be \(SiteJob.jobsRange.lowerBound) to \(SiteJob.jobsRange.upperBound)")
            }; job.jobs = n }
        if let depth = try arguments.limit("depth", minimum: 0) { job.scope.maxDepth = depth }
        try applyTrapOptions(to: &job)
        do {
            job.scope.includes = try arguments.all("include").map(PathRule.parse)
            job.scope.excludes = try arguments.all("exclude").map(PathRule.parse)
        } catch {
            throw UsageError(error.summary, hint: CommandLineHint.hint(for: error))
        }
        job.scope.noParent = arguments.flag("no-parent")
        job.scope.requisiteHosts = arguments.all("requisite-hosts").flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        if let n = try arguments.int("max-pages") { job.limits.maxPages = n }
        if let size = try arguments.size("max-bytes") { job.limits.maxBytes = size }
        if let size = try arguments.size("max-file-size") { job.limits.maxFileSize = size }
        if let size = try arguments.size("max-html-size") { job.limits.maxHTMLBytes = size }
        if let n = try arguments.int("max-url-length") { job.limits.maxURLLength = n }
        if let n = try arguments.int("per-host") { guard n >= 1 else { throw UsageError("--per-host must be at least 1") }; job.limits.perHostConnections = n }
        if let seconds = try arguments.double("connect-timeout") { job.limits.timeouts.connect = seconds }
        if let seconds = try arguments.double("idle-timeout") { job.limits.timeouts.idle = seconds }
        if let rate = try arguments.size("min-rate") { job.limits.timeouts.lowSpeedBytes = Int(clamping: rate) }
        if let seconds = try arguments.double("header-timeout") { job.limits.timeouts.headers = seconds }
        if let seconds = try arguments.duration("max-run-time") { job.limits.runTime = seconds }
        if arguments.flag("no-partial") { job.publishPartial = false }
        if let seconds = try arguments.double("max-time") { job.limits.timeouts.total = seconds }
        if let ratio = try arguments.double("compressed-ratio") { job.limits.maxDecompressionRatio = ratio }
        job.respectRobots = !arguments.flag("ignore-robots")
        job.sitemaps = SitemapOptions(enabled: arguments.flag("sitemaps") || arguments.flag("sitemap-lastmod"),
                                      trustLastModified: arguments.flag("sitemap-lastmod"))
        job.incremental = !arguments.flag("full")
        if let file = arguments.value("cookies") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw UsageError("cannot read the cookie file \(file)", hint: "check the path; it must be a Netscape cookie file (curl -c)")
            }
            job.cookies.load(netscapeFile: text)
        }
        if let agent = arguments.value("user-agent") { job.userAgent = agent }
        for header in arguments.all("header") {
            guard let colon = header.firstIndex(of: ":") else { throw UsageError("--header \"\(header)\" is not NAME: VALUE") }
            job.headers.append((String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                                String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        if let n = try arguments.int("max-redirs") { job.redirects.maxRedirects = n }
        job.redirects.allowDowngrade = arguments.flag("allow-downgrade")
        if let n = try arguments.int("retry") { job.retries.maxRetries = n }
        job.politeness.maximumConcurrency = job.jobs
        if let seconds = try arguments.double("wait") {
            guard seconds >= 0 else { throw UsageError("--wait must be 0 or more seconds") }
            job.politeness.wait = seconds
        }
        job.politeness.randomWait = arguments.flag("random-wait")
        if let rate = try arguments.double("host-rate") {
            guard rate > 0 else { throw UsageError("--host-rate must be more than 0 requests per second") }
            job.politeness.hostRequestsPerSecond = rate
        }
        if let size = try arguments.size("limit-rate") {
            guard size > 0 else { throw UsageError("--limit-rate must be at least 1 byte per second") }
            job.politeness.bytesPerSecond = size
        }
        job.render = try Self.renderSettings(arguments, base: job.render)
    }

    /// Render mode from the command line: nil when no render option is given (`base` then).
    static func renderSettings(_ arguments: ParsedArguments, base: RenderSettings?) throws -> RenderSettings? {
        let given = renderOptions.contains { arguments.flag($0.name) || arguments.value($0.name) != nil || !arguments.all($0.name).isEmpty }
        guard given else { return base }
        var settings = base ?? RenderConfig().settings(executable: RenderConfig.browserExecutable(environment: ProcessInfo.processInfo.environment))
        do {
            settings.includes += try arguments.all("render-include").map(PathRule.parse)
            settings.excludes += try arguments.all("render-exclude").map(PathRule.parse)
        } catch {
            throw UsageError(error.summary, hint: CommandLineHint.hint(for: error))
        }
        if let n = try arguments.int("render-jobs") {
            guard RenderConfiguration.tabsRange.contains(n) else {
                throw UsageError("--render-jobs must be \(RenderConfiguration.tabsRange.lowerBound) to \(RenderConfiguration.tabsRange.upperBound)")
            }
            settings.browser.tabs = n
        }
        if let seconds = try arguments.double("render-timeout") {
            guard seconds > 0 else { throw UsageError("--render-timeout must be more than 0 seconds") }
            settings.browser.budget.time = seconds
        }
        if let seconds = try arguments.nonNegativeDouble("render-timers") {
            guard seconds <= 3_600 else { throw UsageError("--render-timers must be 0 to 3600 seconds") }
            settings.browser.budget.timers = seconds
        }
        if arguments.flag("render-keep-scripts") { settings.scripts = .keep }
        return settings
    }
}
