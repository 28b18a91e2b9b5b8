import Foundation
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorTLS

/// `mtls-mirror init URL --cert FILE`: looks at the server once, as `inspect` does, and writes a
/// starter config.json whose trust policy fits what it saw.
struct InitCommand {
    static let spec = CommandSpec(
        name: "init",
        summary: "look at a server once and write a starter config.json with a fitting trust policy",
        usage: "mtls-mirror init URL --cert FILE [--key FILE] [--pass-env VAR | --pass-file FILE] [--cacert FILE] [-o config.json] [--name NAME] [--force]",
        discussion: """
            Connects once WITHOUT the client certificate and with no trust checks, only to read the \
            server's chain (as inspect does). If the chain verifies against the system store (or \
            --cacert), the config keeps that check and adds key pins of the server and of its issuing \
            CA. If it does not (self-signed or private CA), the config pins the server's certificate, \
            saved next to the config as server-cert.pem. Then, under that policy only, it checks that \
            the server accepts the client certificate. The password is referenced ({"env": VAR} or \
            {"file": FILE}), never written. Existing files are kept unless --force.
            """,
        options: [
            OptionSpec("cert", short: "E", value: "FILE", help: "Client certificate: PKCS#12 (.p12/.pfx) or PEM."),
            OptionSpec("key", value: "FILE", help: "Private key (PEM) when it is not inside --cert."),
            OptionSpec("pass-env", value: "VAR", help: "The password is in environment variable VAR (the config refers to VAR)."),
            OptionSpec("pass-file", value: "FILE", help: "The password is the first line of FILE (the config refers to FILE)."),
            OptionSpec("cacert", value: "FILE", repeatable: true, help: "Trust these CA certificates (PEM) instead of the system store."),
            OptionSpec("output", short: "o", value: "FILE", help: "The config file to write (default ./config.json)."),
            OptionSpec("name", value: "NAME", help: "The site's name (default: the URL's host, with _PORT for other ports)."),
            OptionSpec("force", help: "Overwrite an existing config file and server-cert.pem."),
        ],
        examples: [
            "mtls-mirror init https://intranet.example/ --cert me.p12 --pass-env P12_PASSWORD",
            "mtls-mirror init https://10.0.0.5:8443/ --cert me.crt --key me.key -o intranet.json --name intranet",
        ])

    let arguments: ParsedArguments
    let logger: Logger

    init(arguments: ParsedArguments, logger: Logger) {
        self.arguments = arguments
        self.logger = logger
    }

    func run() async throws -> ExitCode {
        guard arguments.positionals.count == 1, let text = arguments.positionals.first else {
            throw UsageError("init takes exactly one URL", hint: "mtls-mirror init https://host/ --cert FILE")
        }
        let url: WebURL
        do { url = try WebURL.parse(text).withoutFragment } catch {
            throw UsageError("\"\(text)\" is not a usable URL: \(error.summary)", hint: "use an absolute https:// URL")
        }
        guard url.scheme == "https" else { throw UsageError("init needs an https:// URL, not \"\(text)\"") }
        guard arguments.value("cert") != nil else { throw UsageError("init needs --cert FILE", hint: "the client certificate the site requires") }
        let name = arguments.value("name") ?? SiteJob.defaultName(for: url)
        try MirrorCommand.validateSiteName(name)
        let configPath = Self.absolute(arguments.value("output") ?? "config.json")
        let certificatePath = (configPath as NSString).deletingLastPathComponent + "/server-cert.pem"
        let force = arguments.flag("force")
        for path in [configPath, certificatePath] where !force && FileManager.default.fileExists(atPath: path) {
            throw UsageError("\(path) exists; not overwriting it", hint: "add --force to replace it, or -o another file")
        }

        // The same handshake as `inspect`: identity loaded, chain read anonymously.
        let tls = try TLSOptions(arguments)
        let identity = try tls.loadIdentity(logger: logger)
        let client = HTTPClient()
        defer { client.shutdown() }
        let recorder = RecordingEvaluator()
        var probe = HTTPRequest(url: url.string, method: .get, maxBodyBytes: 64 * 1024)
        probe.detectCertificateRejection = false
        probe.timeouts.total = 30
        do {
            _ = try await client.perform(probe, profile: TLSProfile(identity: nil, evaluator: recorder))
        } catch {
            if recorder.trust == nil { throw error }
        }
        guard let trust = recorder.trust, let leaf = trust.chain.first else {
            throw HTTPError.tls(url: url.string, code: 0, message: "the server presented no certificate")
        }

        // Propose a policy from what was seen.
        let proposal: StarterConfig.Trust
        let evaluator: any ServerTrustEvaluating
        let cacert = tls.caFiles.map(Self.absolute)
        if (try? DefaultTrustEvaluator(anchors: tls.anchors, validateHost: true).evaluate(trust)) != nil {
            let pins = trust.chain.prefix(2).map(\.pin)
            proposal = .verifiedChain(cacert: cacert, pins: pins)
            evaluator = CompositeTrustEvaluator([DefaultTrustEvaluator(anchors: tls.anchors, validateHost: true),
                                                 PublicKeysTrustEvaluator(pins: pins, anchors: tls.anchors)])
            logger.info("the chain verifies against \(cacert.isEmpty ? "the system CA store" : cacert.joined(separator: ", ")); proposing it plus key pins")
        } else {
            let verifyHost = (try? PinnedCertificatesTrustEvaluator(certificates: [leaf], validateHost: true).evaluate(trust)) != nil
            proposal = .pinnedCertificate(certificateFile: certificatePath, verifyHost: verifyHost)
            evaluator = PinnedCertificatesTrustEvaluator(certificates: [leaf], validateHost: verifyHost)
            logger.warning("the chain does not verify against \(cacert.isEmpty ? "the system CA store" : "--cacert") (self-signed or private CA); proposing to pin the certificate \(leaf.subject)")
        }

        // Under that policy only, does the server accept the identity?
        if let identity {
            let security = SecurityPolicy(identity: identity, identityScope: HostScope(["\(url.host):\(url.effectivePort)"]),
                                          trust: ServerTrustManager(fallback: evaluator))
            var request = HTTPRequest(url: url.string, maxBodyBytes: 64 * 1024)
            request.timeouts.total = 30
            do {
                let result = try await client.fetch(request, security: security, redirects: RedirectPolicy(follow: false), retries: .none)
                logger.info("the server accepted the client certificate (HTTP \(result.response.status))")
            } catch {
                logger.warning("checking the client certificate failed: \(error.summary); the config is written anyway")
            }
        }

        var password: PasswordReference?
        if let variable = arguments.value("pass-env") { password = .environment(variable) }
        if let file = arguments.value("pass-file") { password = .file(Self.absolute(file)) }
        let config = StarterConfig(
            name: name, start: url.string, certificate: Self.absolute(arguments.value("cert") ?? ""),
            key: arguments.value("key").map(Self.absolute), password: password, trust: proposal)
        if case .pinnedCertificate = proposal {
            try Self.write(Array(Self.pem(leaf.der).utf8), to: certificatePath, replace: force)
        }
        try Self.write(Array(config.json.utf8), to: configPath, replace: force)
        _ = try MirrorConfig.load(path: configPath)
        var written = configPath
        if case .pinnedCertificate = proposal { written += " and \(certificatePath)" }
        Terminal.write("wrote \(written); review it, then run `mtls-mirror mirror --config \(configPath)`\n", to: 2)
        return .success
    }

    /// `path` made absolute from the working directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let cwd = FileManager.default.currentDirectoryPath
        return (cwd.hasSuffix("/") ? cwd : cwd + "/") + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// A certificate as PEM text.
    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        return (lines + ["-----END CERTIFICATE-----"]).joined(separator: "\n") + "\n"
    }

    /// Writes a file 0600: atomically over an old one with `replace`, else only if absent.
    /// - Throws: ``UsageError`` when it exists and `replace` is off, or cannot be written.
    static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws(UsageError) {
        let temporary = path + ".tmp-\(getpid())"
        let target = replace ? temporary : path
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw UsageError("cannot create \(path): \(String(cString: strerror(errno)))", hint: "check the folder, or use --force to replace the file")
        }
        let written = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { Glibc.write(descriptor, $0, buffer.count) } ?? 0 }
        close(descriptor)
        guard written == bytes.count, !replace || rename(temporary, path) == 0 else {
            unlink(target)
            throw UsageError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
