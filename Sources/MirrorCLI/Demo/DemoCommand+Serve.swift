import Foundation
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorServer
import MirrorTLS

extension DemoCommand {
    /// Serves the demo mirror on loopback until `stop` fires, then stops the server.
    ///
    /// Without `--port`, a busy 8080 falls back to a free port. The URL to open goes to standard
    /// output; everything else to standard error.
    /// - Throws: ``ServerError`` when the server cannot start; ``CrawlError`` when live mode
    ///   cannot open the mirror.
    func serve(_ options: Options, job: SiteJob, security: SecurityPolicy, client: HTTPClient,
               origin: DemoOrigin, pki: DemoPKI, stop: StopSignal) async throws -> ExitCode {
        var configuration = ServerConfiguration(layout: .single(ServedSite(name: Self.siteName, directory: options.siteDirectory)))
        configuration.host = "127.0.0.1"
        configuration.port = options.port ?? Self.defaultPort
        let counter = RequestCounter(limit: options.maxRequests) { stop.trigger() }
        let showLog = logger.minimumLevel <= .info
        configuration.accessLog = { entry in
            if showLog { Terminal.write(entry.commonLogFormat + "\n", to: 2) }
            counter.count()
        }
        if options.live {
            let fetcher = try LiveFetcher(job: job, security: security, client: client, maxAge: nil, logger: logger)
            configuration.liveEnabled = true
            configuration.missHandler = LiveMissHandler(fetchers: [Self.siteName: fetcher], prefixes: [Self.siteName: ""])
        }

        let (server, port) = try startServer(configuration, fallBackToFreePort: options.port == nil)
        defer { server.stop() }

        let url = "http://127.0.0.1:\(port)/"
        Terminal.write("""
            mtls-mirror demo: the origin \(origin.url) requires a client certificate; its mirror is in \(options.siteDirectory)/current
              Try the origin yourself: mtls-mirror inspect \(origin.url) --cacert \(pki.serverCAFile) --cert \(pki.clientPKCS12File) --pass-file \(options.pkiDirectory)/password.txt
              Live fetch is \(options.live ? "ON: open \(url)\(DemoSite.beyondDepthPage) to fetch a page the crawl left out" : "off (--live turns it on)"). Ctrl-C stops both servers.

            """, to: 2)
        Terminal.write("Open \(url)\n", to: 1)

        if let seconds = options.exitAfter { stop.stop(after: seconds) }
        let reason = await stop.wait()
        server.stop()
        origin.stop()
        switch reason {
        case .signal: logger.info("stopped by signal; both servers are down")
        case .deadline: logger.info("stopped after \(options.exitAfter.map { String($0) } ?? "?") s (--exit-after)")
        case .triggered: logger.info("stopped after \(counter.total) requests (--max-requests)")
        }
        return .success
    }
}

extension DemoCommand {
    /// Starts the server; when the default port is busy and `fallBackToFreePort`, on a free port.
    /// - Throws: ``ServerError`` from ``MirrorServer/start()``.
    func startServer(_ configuration: ServerConfiguration, fallBackToFreePort: Bool) throws(ServerError) -> (MirrorServer, UInt16) {
        let server = MirrorServer(configuration: configuration)
        let failure: ServerError
        do {
            return (server, try server.start())
        } catch {
            failure = error
        }
        guard fallBackToFreePort, case .socketFailed("bind", _, EADDRINUSE) = failure else { throw failure }
        logger.warning("port \(configuration.port) is busy; using a free port instead")
        var retry = configuration
        retry.port = 0
        let fallback = MirrorServer(configuration: retry)
        return (fallback, try fallback.start())
    }
}

/// Counts served requests and calls `reached` once when `limit` is reached. Called from the
/// server's loop thread; `reached` must not stop the server itself.
final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int?
    private let reached: @Sendable () -> Void
    private var seen = 0

    init(limit: Int?, reached: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.reached = reached
    }

    /// Requests counted so far.
    var total: Int { lock.withLock { seen } }

    /// Counts one request.
    func count() {
        let hit: Bool = lock.withLock {
            seen += 1
            return seen == limit
        }
        if hit { reached() }
    }
}
