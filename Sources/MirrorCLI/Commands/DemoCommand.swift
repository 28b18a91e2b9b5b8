import Foundation
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorServer
import MirrorTLS

/// `mtls-mirror demo`: the whole tool in one command, with nothing to set up.
///
/// Generates a throwaway PKI, starts an embedded origin that requires a client certificate,
/// mirrors it with the demo identity through the same crawl as `mirror`, and serves the copy
/// with the same server as `serve`, until Ctrl-C (or `--exit-after` / `--max-requests`).
struct DemoCommand {
    /// The site's folder name under the output root.
    static let siteName = "demo"
    /// The local server's default port.
    static let defaultPort: UInt16 = 8080

    static let spec = CommandSpec(
        name: "demo",
        summary: "mirror a built-in sample site that requires a client certificate, then serve the copy",
        usage: "mtls-mirror demo [-o DIR] [--port 8080] [--origin-port N] [--live] [--exit-after SECONDS] [--max-requests N]",
        discussion: """
            Generates a throwaway PKI in DIR/demo/.pki (a server CA, a certificate for localhost, a \
            client CA and a client certificate in a password-protected PKCS#12 file), starts an origin \
            on loopback that REQUIRES that client certificate, mirrors it into DIR/demo with the same \
            crawler as `mirror`, and serves the mirror on http://127.0.0.1:PORT/ like `serve`. \
            Ctrl-C stops both servers. With --live, the page the crawl left out (it lies beyond the \
            crawl depth) is fetched from the origin over mTLS when you open it.
            """,
        options: [
            OptionSpec("output", short: "o", value: "DIR", help: "Output root (default ./output); the mirror goes to DIR/demo, the PKI to DIR/demo/.pki."),
            OptionSpec("port", short: "p", value: "PORT", help: "Local server port (default 8080, or a free one when 8080 is busy; 0 picks a free one)."),
            OptionSpec("origin-port", value: "PORT", help: "The embedded origin's port (default 8443, the one ./config.json names; a free one when 8443 is busy)."),
            OptionSpec("live", help: "Serve with live fetch on: pages missing from the mirror are fetched from the origin over mTLS."),
            OptionSpec("exit-after", value: "SECONDS", help: "Stop by itself after serving for SECONDS (for scripts and CI)."),
            OptionSpec("max-requests", value: "N", help: "Stop after the local server has answered N requests (for scripts and CI)."),
        ],
        examples: [
            "mtls-mirror demo                       # then open http://127.0.0.1:8080/",
            "mtls-mirror demo --live --port 9000",
            "mtls-mirror demo -o /tmp/demo-out --port 0 --max-requests 5",
        ])

    let arguments: ParsedArguments
    let logger: Logger

    init(arguments: ParsedArguments, logger: Logger) {
        self.arguments = arguments
        self.logger = logger
    }

    /// What the options ask for, checked.
    struct Options: Equatable {
        var output = "output"
        var port: UInt16?
        var originPort: UInt16 = 0
        var live = false
        var exitAfter: Double?
        var maxRequests: Int?

        var siteDirectory: String { output + "/" + DemoCommand.siteName }
        var pkiDirectory: String { siteDirectory + "/.pki" }
    }

    /// Reads and checks the options.
    /// - Throws: ``UsageError`` for positionals, a port above 65535, or a bad number.
    func options() throws(UsageError) -> Options {
        guard arguments.positionals.isEmpty else {
            throw UsageError("demo takes no positional arguments (got \(arguments.positionals.joined(separator: " ")))",
                             hint: "see `mtls-mirror demo --help`")
        }
        var options = Options()
        options.output = arguments.value("output") ?? "output"
        func port(_ name: String) throws(UsageError) -> UInt16? {
            guard let number = try arguments.int(name) else { return nil }
            guard number <= 65535 else { throw UsageError("--\(name) must be 0 to 65535") }
            return UInt16(number)
        }
        options.port = try port("port")
        options.originPort = try port("origin-port") ?? (Self.portIsFree(8443) ? 8443 : 0)
        options.live = arguments.flag("live")
        options.exitAfter = try arguments.double("exit-after")
        if let n = try arguments.int("max-requests") {
            guard n >= 1 else { throw UsageError("--max-requests must be at least 1") }
            options.maxRequests = n
        }
        return options
    }

    func run() async throws -> ExitCode {
        let options = try options()
        let stop = StopSignal()
        defer { stop.disarm() }

        // 1. A throwaway PKI; the password lives in this process (and a 0600 file for your own tries).
        let password = Secret(ServeCommand.randomToken())
        let pki = try DemoPKI.generate(in: options.pkiDirectory, password: password)
        try PrivateFolder(options.pkiDirectory).write(Array((password.reveal() + "\n").utf8), to: "password.txt")
        logger.info("generated a throwaway PKI in \(options.pkiDirectory)")

        // 2. The origin: TLS, client certificate REQUIRED.
        let origin = try DemoOrigin(pki: pki, port: options.originPort, logger: logger)
        defer { origin.stop() }
        logger.info("origin \(origin.url) is up; it requires a client certificate from \(pki.clientCAFile)")

        // 3. Mirror it through the same code path as `mirror`.
        let identity = try ClientIdentity.load(certificate: pki.clientPKCS12File, password: password)
        let security = SecurityPolicy(
            identity: identity, identityScope: HostScope(["localhost:\(origin.port)"]),
            trust: ServerTrustManager(fallback: DefaultTrustEvaluator(anchors: .files([pki.serverCAFile]), validateHost: true)))
        var job = SiteJob(name: Self.siteName, startURLs: [try WebURL.parse(origin.url)], outputRoot: options.output)
        job.scope.maxDepth = DemoSite.crawlDepth
        job.jobs = 4
        let client = HTTPClient(configuration: .init(maxConnectionsPerHost: 4, maxTotalConnections: 4))
        defer { client.shutdown() }
        let crawl = Task { [job, logger] in
            try await SiteRun(job: job, security: security, client: client, logger: logger, keep: 3).execute(command: "demo")
        }
        stop.onStop { crawl.cancel() }
        let mirrorCode: ExitCode
        do {
            mirrorCode = try await crawl.value
        } catch CrawlError.cancelled {
            logger.warning("interrupted while mirroring; stopping the origin")
            return .interrupted
        }
        if stop.stopReason != nil { return .interrupted }
        if mirrorCode != .success { logger.warning("the demo mirror is incomplete (exit \(mirrorCode.rawValue)); serving what there is") }

        // 4. Serve the mirror, as `serve` does, until stopped.
        return try await serve(options, job: job, security: security, client: client, origin: origin, pki: pki, stop: stop)
    }
}

extension DemoCommand {
    /// Whether nothing listens on 127.0.0.1:`port` (a connect attempt is refused).
    static func portIsFree(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return connected != 0
    }
}
