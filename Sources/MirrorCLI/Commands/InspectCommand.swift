import Foundation
import MirrorCore
import MirrorHTTP
import MirrorTLS

/// `mtls-mirror inspect URL`: a TLS doctor. Shows the server's chain with ready-to-paste pins,
/// each trust evaluator's verdict, the client identity, and whether the server accepted it.
struct InspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "show a server's certificates and pins, each trust verdict, and whether it accepts your client certificate",
        usage: "mtls-mirror inspect URL [TLS options] [--json]",
        discussion: """
            First connects WITHOUT the client certificate and with no trust checks, only to read the \
            server's chain. Then evaluates the chain under the policy given by the TLS options (and \
            the system CA store for comparison). Only if the policy passes does it connect again with \
            the client certificate, to see whether the server accepts it.
            """,
        options: [
            OptionSpec("json", help: "Print one JSON object instead of text."),
        ] + TLSOptions.specs,
        examples: [
            "mtls-mirror inspect https://intranet.example/ --cert me.p12 --pass-env P12_PASSWORD",
            "mtls-mirror inspect https://10.0.0.5:8443/ --cacert corp-ca.pem --json",
        ])

    let arguments: ParsedArguments
    let logger: Logger

    func run() async throws -> ExitCode {
        guard arguments.positionals.count == 1, let url = arguments.positionals.first else {
            throw UsageError("inspect takes exactly one URL", hint: "mtls-mirror inspect https://host/")
        }
        let tls = try TLSOptions(arguments)
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
              let host = components.host else {
            throw UsageError("inspect needs an https:// URL, not \"\(url)\"")
        }
        let port = components.port ?? 443
        var report = InspectReport(url: url)
        let client = HTTPClient(configuration: try .proxied(arguments))
        defer { client.shutdown() }

        // 1. Identity (reported, not yet sent).
        var identity: ClientIdentity?
        var identityError: (any DiagnosableError)?
        do {
            identity = try tls.loadIdentity(logger: logger)
            if let identity {
                report.clientIdentity = .init(identity.leaf, chainLength: identity.chain.count, warning: identity.expiryWarning(),
                                              token: identity.token)
            }
        } catch let error as any DiagnosableError {
            identityError = error
            report.clientIdentityError = error.description
        }

        // 2. Read the chain: no identity, no checks, nothing trusted from this connection.
        let recorder = RecordingEvaluator()
        var probe = HTTPRequest(url: url, method: .get, maxBodyBytes: 64 * 1024)
        probe.detectCertificateRejection = false
        probe.timeouts.total = 30
        do {
            let response = try await client.perform(probe, profile: TLSProfile(identity: nil, evaluator: recorder))
            report.tlsVersion = response.tls?.version
            report.cipher = response.tls?.cipher
            report.alpn = response.tls?.alpn
        } catch {
            if recorder.trust == nil {
                report.error = error.description
                try emit(report)
                throw error
            }
        }
        guard let trust = recorder.trust else {
            throw HTTPError.tls(url: url, code: 0, message: "the server presented no certificate")
        }
        report.chain = trust.chain.map(InspectReport.Certificate.init)

        // 3. Verdicts: the configured policy's members, and the system store for comparison.
        var members = try tls.evaluators()
        let configuredNames = members.map(\.name)
        var policyPassed = true
        var firstFailure: TrustError?
        if !members.contains(where: { $0.name == "default" }) && !tls.insecure {
            members.append(DefaultTrustEvaluator(anchors: .system, validateHost: true))
        }
        for (index, evaluator) in members.enumerated() {
            let configured = index < configuredNames.count
            let label = configured ? evaluator.name : "\(evaluator.name) (system CA store, for comparison)"
            do {
                try evaluator.evaluate(trust)
                let anchor = try (evaluator as? DefaultTrustEvaluator)?.verifiedAnchor(trust)
                report.verdicts.append(.init(evaluator: label, configured: configured, passed: true,
                                             detail: anchor.map { "passed: the chain leads to \($0.summary)" } ?? "passed", anchor: anchor))
            } catch {
                report.verdicts.append(.init(evaluator: label, configured: configured, passed: false, detail: error.description))
                if configured {
                    policyPassed = false
                    if firstFailure == nil { firstFailure = error }
                }
            }
        }
        report.policyPassed = policyPassed

        // 4. Does the server accept the identity? Only under a passing policy.
        var exit: ExitCode = .success
        if let firstFailure {
            exit = .serverTrust
            report.clientAccepted = nil
            report.notes.append("the client certificate was not sent, because the server failed the trust policy: \(firstFailure.summary)")
        } else if let identity {
            let security = SecurityPolicy(
                identity: identity, identityScope: HostScope(["\(host):\(port)"]),
                trust: ServerTrustManager(evaluators: [(pattern: host, evaluator: try tls.evaluator())], allHostsMustBeEvaluated: true))
            var request = HTTPRequest(url: url, maxBodyBytes: 64 * 1024)
            request.timeouts.total = 30
            do {
                let result = try await client.fetch(request, security: security, redirects: RedirectPolicy(follow: false), retries: .none)
                report.clientAccepted = true
                report.httpStatus = result.response.status
                report.tlsVersion = result.response.tls?.version ?? report.tlsVersion
                report.cipher = result.response.tls?.cipher ?? report.cipher
                report.alpn = result.response.tls?.alpn ?? report.alpn
            } catch {
                if case .clientCertificateRejected(_, _, let detail) = error {
                    report.clientAccepted = false
                    report.notes.append("the server rejected the client certificate: \(detail)")
                    exit = .clientCertificateRejected
                } else {
                    report.error = error.description
                    exit = ExitCode(error.category)
                }
            }
        } else if let identityError {
            exit = ExitCode(identityError.category)
        }
        try emit(report)
        return exit
    }

    private func emit(_ report: InspectReport) throws {
        if arguments.flag("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            Terminal.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n", to: 1)
        } else {
            Terminal.write(report.text, to: 1)
        }
    }
}

/// Accepts every server and keeps what it saw. Used only by `inspect` for its first, anonymous
/// connection, whose result is never trusted or used for content.
final class RecordingEvaluator: ServerTrustEvaluating, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: ServerTrust?
    var name: String { "inspect-recorder" }
    var trust: ServerTrust? { lock.lock(); defer { lock.unlock() }; return seen }
    func evaluate(_ trust: ServerTrust) throws(TrustError) {
        lock.lock()
        seen = trust
        lock.unlock()
    }
}
