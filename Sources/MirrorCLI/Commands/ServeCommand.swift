import Foundation
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorServer
import MirrorTLS
#if canImport(Glibc)
import Glibc
#endif

/// `mtls-mirror serve`: shows mirrors to any browser, optionally fetching missing pages live
/// over mTLS so that the browser never needs the client certificate.
struct ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "serve mirrors to any browser on loopback; --live fetches missing pages over mTLS",
        usage: "mtls-mirror serve [-o DIR | --config FILE] [--site NAME]... [--port 8080] [--bind 127.0.0.1] [--live [TLS options]]",
        discussion: """
            Serves each site's current snapshot (one site at /, several under /NAME/, with an index at /). \
            It binds 127.0.0.1 by default; any other address needs --allow-remote and an access token, \
            because the content is protected. With --live, a page the mirror lacks (or older than \
            --max-age) is fetched from the origin with the site's identity and trust policy (from \
            config.json, or the TLS options given here), rewritten as a crawl would, stored, and served. \
            A site mirrored with --warc is also replayed from its WARC files at the time a reader picks: \
            /TIMESTAMP/URL (under /NAME/ with several sites), the capture nearest to TIMESTAMP (4 to 14 digits).
            """,
        options: [
            OptionSpec("output", short: "o", value: "DIR", help: "Serve the sites mirrored under DIR (default ./output, or the config's output)."),
            OptionSpec("config", short: "c", value: "FILE", help: "Take sites, identities and trust from FILE (default ./config.json when present)."),
            OptionSpec("site", value: "NAME", repeatable: true, values: .site, help: "Serve only these sites."),
            OptionSpec("port", short: "p", value: "PORT", help: "TCP port (default 8080; 0 picks a free one)."),
            OptionSpec("bind", value: "ADDRESS", help: "Address to listen on (default 127.0.0.1)."),
            OptionSpec("allow-remote", help: "Allow a non-loopback --bind; requires an access token."),
            OptionSpec("token-file", value: "FILE", help: "The access token for remote clients (Bearer header or ?token= once, then a cookie)."),
            OptionSpec("live", help: "Fetch missing in-scope pages from the origin over mTLS when a browser asks."),
            OptionSpec("max-age", value: "DURATION", help: "With --live: fetch again files older than this (e.g. 10m, 1h)."),
            OptionSpec("access-log", value: "FILE", help: "Common Log Format access log (default: standard error; '-' for standard output)."),
            OptionSpec("tls-cert", value: "FILE", help: "Serve over HTTPS with this certificate chain (PEM)."),
            OptionSpec("tls-key", value: "FILE", help: "The key for --tls-cert (PEM)."),
            OptionSpec("client-ca", value: "FILE", help: "With --tls-cert: require client certificates issued by these CAs (mTLS)."),
            OptionSpec("exit-after", value: "SECONDS", help: "Stop by itself after SECONDS (for scripts and tests)."),
        ] + TLSOptions.specs,
        examples: [
            "mtls-mirror serve                      # every site in ./output, on http://127.0.0.1:8080/",
            "mtls-mirror serve --site intranet --live --max-age 1h --cert me.p12 --pass-env P12_PASSWORD",
            "mtls-mirror serve --bind 0.0.0.0 --allow-remote --token-file token.txt --tls-cert srv.pem --tls-key srv.key",
        ])

    let arguments: ParsedArguments
    let logger: Logger

    struct Site {
        let name: String
        let directory: String
        var job: SiteJob?
        var security: SecurityPolicy?
    }

    func run() async throws -> ExitCode {
        guard arguments.positionals.isEmpty else {
            throw UsageError("serve takes no positional arguments (got \(arguments.positionals.joined(separator: " ")))",
                             hint: "select sites with --site NAME")
        }
        let (sites, serveConfig) = try discoverSites()
        guard !sites.isEmpty else {
            throw UsageError("no mirrored site to serve", hint: "run `mtls-mirror mirror URL` first, or pass -o DIR")
        }
        var configuration = ServerConfiguration(layout: sites.count == 1
            ? .single(ServedSite(name: sites[0].name, directory: sites[0].directory))
            : .several(sites.map { ServedSite(name: $0.name, directory: $0.directory) }))
        configuration.host = arguments.value("bind") ?? serveConfig?.bind ?? "127.0.0.1"
        if let port = try arguments.int("port") {
            guard port <= 65535 else { throw UsageError("--port must be 0 to 65535") }
            configuration.port = UInt16(port)
        } else {
            configuration.port = UInt16(serveConfig?.port ?? 8080)
        }
        configuration.allowRemote = arguments.flag("allow-remote") || (serveConfig?.allowRemote ?? false)
        if let tokenFile = arguments.value("token-file") ?? serveConfig?.tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8), !Secret(text).isEmpty else {
                throw UsageError("cannot read the access token from \(tokenFile)", hint: "put the token on the first line of the file")
            }
            configuration.accessToken = Secret(text)
        } else if configuration.allowRemote {
            let token = Self.randomToken()
            configuration.accessToken = Secret(token)
            logger.warning("no --token-file: generated an access token for this run; open http://HOST:PORT/?token=\(token) once")
        }
        if let cert = arguments.value("tls-cert") {
            guard let key = arguments.value("tls-key") else { throw UsageError("--tls-cert needs --tls-key") }
            configuration.tls = ServerTLSConfiguration(certificateChainFile: cert, privateKeyFile: key, clientCAFile: arguments.value("client-ca"))
        } else if arguments.value("tls-key") != nil || arguments.value("client-ca") != nil {
            throw UsageError("--tls-key and --client-ca need --tls-cert")
        }
        configuration.accessLog = try accessLogger(path: arguments.value("access-log") ?? serveConfig?.accessLog)
        // Render mode with scripts kept: the applications' calls are answered from the recordings.
        let directories = Dictionary(sites.map { ($0.name, $0.directory) }, uniquingKeysWith: { first, _ in first })
        if ReplayInterceptor.anyReplays(directories) {
            configuration.requestInterceptor = ReplayInterceptor(directories: directories)
        }

        let live = arguments.flag("live")
        var client: HTTPClient?
        var liveFetchers: [LiveFetcher] = []
        defer { for fetcher in liveFetchers { fetcher.stopRendering() } }
        if live {
            let http = HTTPClient(configuration: try .proxied(arguments))
            client = http
            var fetchers: [String: LiveFetcher] = [:]
            var prefixes: [String: String] = [:]
            let maxAge = try arguments.value("max-age").map { text throws(UsageError) -> Double in
                guard let seconds = ConfigQuantity.seconds(text) else { throw UsageError("--max-age needs a duration such as 10m, not \"\(text)\"") }
                return seconds
            }
            for site in try liveSites(sites) {
                guard var job = site.job, let security = site.security else { continue }
                // A site mirrored in render mode has its live pages rendered too.
                if job.render == nil, FileManager.default.fileExists(atPath: site.directory + "/current/_mirror/render.json") {
                    job.render = RenderConfig().settings(executable: RenderConfig.browserExecutable(environment: ProcessInfo.processInfo.environment))
                }
                let fetcher = try LiveFetcher(job: job, security: security, client: http, maxAge: maxAge, logger: logger)
                fetchers[site.name] = fetcher
                liveFetchers.append(fetcher)
                prefixes[site.name] = sites.count == 1 ? "" : "/" + site.name
            }
            configuration.liveEnabled = true
            configuration.missHandler = LiveMissHandler(fetchers: fetchers, prefixes: prefixes)
        }
        defer { client?.shutdown() }
        // A site with WARC files (mirror --warc) is also replayed at /SITE/TIMESTAMP/URL.
        configuration.missHandler = ReplayMissHandler.wrap(configuration.missHandler, sites: sites.map { ($0.name, $0.directory) })

        let server = MirrorServer(configuration: configuration)
        let port = try server.start()
        let scheme = configuration.tls == nil ? "http" : "https"
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        Terminal.write("mtls-mirror: serving \(sites.map(\.name).joined(separator: ", ")) on \(scheme)://\(shownHost):\(port)/\(live ? " (live fetch on)" : "") — Ctrl-C stops\n", to: 2)
        let exitAfter = try arguments.double("exit-after")
        await Self.waitForSignal(timeout: exitAfter)
        server.stop()
        logger.info("stopped")
        return .success
    }

    /// The sites to serve, from the config or from the output folder.
    private func discoverSites() throws -> ([Site], ServeConfig?) {
        let wanted = Set(arguments.all("site"))
        let configPath = arguments.value("config") ?? (arguments.value("output") == nil && FileManager.default.fileExists(atPath: "config.json") ? "config.json" : nil)
        if let configPath {
            let config = try MirrorConfig.load(path: configPath)
            for warning in config.warnings { logger.warning(warning) }
            let root = arguments.value("output") ?? config.output
            var sites: [Site] = []
            for site in config.sites where wanted.isEmpty || wanted.contains(site.name) {
                let directory = root + "/" + site.name
                guard FileManager.default.fileExists(atPath: directory + "/current") else {
                    logger.warning("\(site.name): not mirrored yet (no \(directory)/current); run `mtls-mirror mirror --config \(configPath)`")
                    continue
                }
                var served = Site(name: site.name, directory: directory)
                if arguments.flag("live") || site.serve.live {
                    served.job = try site.makeJob(outputRoot: root, jobs: config.jobs)
                    served.security = try site.makeSecurity(logger: logger).0
                }
                sites.append(served)
            }
            try checkWanted(wanted, found: sites)
            return (sites, config.serve)
        }
        let root = arguments.value("output") ?? "output"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
        let sites = names.filter { name in
            (wanted.isEmpty || wanted.contains(name)) && !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: root + "/" + name + "/current")
        }.map { Site(name: $0, directory: root + "/" + $0) }
        try checkWanted(wanted, found: sites)
        return (sites, nil)
    }

    private func checkWanted(_ wanted: Set<String>, found: [Site]) throws {
        let missing = wanted.subtracting(found.map(\.name))
        if !missing.isEmpty {
            throw UsageError("no mirror for --site \(missing.sorted().joined(separator: ", "))", hint: "mirror it first, or check -o DIR")
        }
    }

    /// Live sites without a config: the start URLs come from the snapshot's report, the
    /// identity and trust from this command's TLS options.
    private func liveSites(_ sites: [Site]) throws -> [Site] {
        var result: [Site] = []
        for var site in sites {
            if site.job == nil {
                let reportPath = site.directory + "/current/_mirror/report.json"
                guard let data = FileManager.default.contents(atPath: reportPath),
                      let report = try? JSONDecoder.iso8601.decode(CrawlReport.self, from: data) else {
                    throw UsageError("\(site.name): no report at \(reportPath) to learn the start URLs for --live", hint: "use a config.json for this site")
                }
                let starts = report.startURLs.compactMap(WebURL.init)
                guard let first = starts.first else { throw UsageError("\(site.name): the report lists no start URL") }
                site.job = SiteJob(name: site.name, startURLs: starts, outputRoot: (site.directory as NSString).deletingLastPathComponent)
                let tls = try TLSOptions(arguments)
                site.security = try tls.securityPolicy(for: first.string, logger: logger)
            }
            result.append(site)
        }
        return result
    }

    private func accessLogger(path: String?) throws -> (@Sendable (AccessLogEntry) -> Void)? {
        if logger.minimumLevel > .info, path == nil { return nil }
        let descriptor: Int32
        switch path {
        case nil: descriptor = 2
        case "-": descriptor = 1
        case let file?:
            descriptor = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw UsageError("cannot open the access log \(file): \(String(cString: strerror(errno)))") }
        }
        return { entry in Terminal.write(entry.commonLogFormat + "\n", to: descriptor) }
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<24).map { _ in NumberText.zeroPadded(Int(UInt8.random(in: 0...255, using: &generator)), width: 2, radix: 16) }.joined()
    }

    /// Waits for SIGINT/SIGTERM (or the timeout), without blocking the cooperative pool.
    static func waitForSignal(timeout: Double?) async {
        let gate = ContinuationGate()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            gate.set(continuation)
            let forwarder = SignalForwarder { _ in gate.open() }
            gate.onOpen { forwarder.cancel() }
            if let timeout {
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { gate.open() }
            }
        }
    }
}


extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
