import Foundation
import MirrorCore
import MirrorCrawler
import MirrorHTTP

/// Runs the sites of a config.json (`mtls-mirror mirror` with no URL).
struct ConfigRunner {
    let arguments: ParsedArguments
    let logger: Logger
    /// Asks the runs to stop early and publish what they have (a first signal): the site running
    /// then publishes, and the sites after it are not started.
    var control: RunControl? = nil

    /// The config named by `--config`, or `./config.json`.
    func loadConfig() throws -> MirrorConfig {
        let path = arguments.value("config") ?? "config.json"
        guard arguments.value("config") != nil || FileManager.default.fileExists(atPath: path) else {
            throw UsageError("no URL given and no ./config.json here", hint: "give a start URL, or --config FILE (see README, config.json reference)")
        }
        let config = try MirrorConfig.load(path: path)
        for warning in config.warnings { logger.warning(warning) }
        return config
    }

    /// The config's sites, filtered by `--site` (or by `names` when given).
    func selectedSites(_ config: MirrorConfig, names: [String]? = nil) throws -> [SiteConfig] {
        let wanted = names ?? arguments.all("site")
        guard !wanted.isEmpty else { return config.sites }
        let known = Set(config.sites.map(\.name))
        for name in wanted where !known.contains(name) {
            throw UsageError("--site \(name): no such site in the config", hint: "known sites: \(config.sites.map(\.name).joined(separator: ", "))")
        }
        return config.sites.filter { wanted.contains($0.name) }
    }

    /// Mirrors every selected site; a failing site does not stop the others.
    /// - Returns: success when all succeeded, `.partial` when some URLs or sites failed, and
    ///   the failure's own code when every site failed the same way.
    func mirrorAll(command: String = "mirror", names: [String]? = nil) async throws -> ExitCode {
        let config = try loadConfig()
        let sites = try selectedSites(config, names: names)
        let outputRoot = arguments.value("output") ?? config.output
        var codes: [ExitCode] = []
        for site in sites {
            if control?.haltReason != nil {
                logger.warning("\(site.name): not started: the run was interrupted")
                codes.append(.interrupted)
                continue
            }
            do {
                var job = try site.makeJob(outputRoot: outputRoot, jobs: config.jobs)
                if arguments.flag("full") { job.incremental = false }
                if let budget = try arguments.duration("max-run-time") { job.limits.runTime = budget }
                job.render = try MirrorCommand.renderSettings(arguments, base: job.render)
                let (security, warnings) = try site.makeSecurity(logger: logger)
                // The command line's proxy options, when given, win over the site's.
                let commandLine = try ProxyOptions(arguments).settings
                let proxy = commandLine != .direct || arguments.flag("proxy-env") ? commandLine : try site.proxy?.settings() ?? .direct
                let client = HTTPClient(configuration: .init(maxConnectionsPerHost: job.limits.perHostConnections,
                                                              maxTotalConnections: max(job.jobs, job.limits.perHostConnections),
                                                              proxy: proxy, politeness: job.politeness,
                                                              httpVersion: job.limits.httpVersion))
                defer { client.shutdown() }
                codes.append(try await SiteRun(job: job, security: security, client: client, logger: logger,
                                               keep: site.refresh.keep, warnings: warnings, control: control,
                                               archive: try MirrorCommand.archive(arguments, configured: site.archive),
                                               closesClientWhenFetched: true)
                    .execute(command: command))
            } catch CrawlError.cancelled {
                throw CrawlError.cancelled
            } catch let error as any DiagnosableError {
                logger.error("\(site.name): \(error.summary)", hint: CommandLineHint.hint(for: error), category: error.category.rawValue)
                codes.append(ExitCode(error.category))
            }
        }
        if codes.allSatisfy({ $0 == .success }) { return .success }
        if codes.contains(.interrupted) { return .interrupted }
        if let first = codes.first, codes.allSatisfy({ $0 == first }) { return first }
        return .partial
    }
}
