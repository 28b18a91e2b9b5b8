import Foundation
import MirrorCore
import MirrorHTTP
import MirrorTLS

/// The TLS options shared by `fetch`, `inspect` and `mirror`. Names follow curl where they overlap.
struct TLSOptions {
    static let specs: [OptionSpec] = [
        OptionSpec("cert", short: "E", value: "FILE|URI", help: "Client certificate: PKCS#12 (.p12/.pfx) or PEM, detected from the content; or 'pkcs11:token=…;object=…' (RFC 7512) for a key and certificate on a smart card, token or HSM."),
        OptionSpec("cert-type", value: "TYPE", values: .choices(["P12", "PEM"]), help: "Force the certificate type: P12 or PEM."),
        OptionSpec("key", value: "FILE|URI", help: "Private key (PEM) when it is not inside --cert; or 'pkcs11:…' for a key on a token with the certificate in the --cert file."),
        OptionSpec("pkcs11-module", value: "FILE", help: "PKCS#11 module for a pkcs11: URI that names none (default: p11-kit's proxy, which loads every registered module)."),
        OptionSpec("pass-env", value: "VAR", help: "Read the certificate/key password, or the token's PIN, from environment variable VAR."),
        OptionSpec("pass-file", value: "FILE", help: "Read the password from the first line of FILE."),
        OptionSpec("pass", value: "PASSWORD", help: "The password itself (curl compatibility; visible in the process list, prefer --pass-env)."),
        OptionSpec("identity-host", value: "HOST", repeatable: true, help: "Also send the client certificate to HOST (host, host:port or *.domain). Default: only the URL's own host and port."),
        OptionSpec("cacert", value: "FILE", repeatable: true, help: "Trust these CA certificates (PEM) instead of the system store."),
        OptionSpec("ca-native", help: "With --cacert: trust the system store too; a chain that leads to either passes (corporate CA plus public CAs)."),
        OptionSpec("crlfile", value: "FILE", repeatable: true, help: "Check revocation against these CRLs (PEM or DER); a revoked or unlisted chain fails."),
        OptionSpec("pinnedpubkey", value: "PINS", help: "Accept only servers whose key matches: 'sha256//BASE64[;sha256//BASE64...]' (as printed by inspect)."),
        OptionSpec("pinnedcert", value: "FILE", repeatable: true, help: "Accept only a server presenting this certificate (PEM/DER); allows self-signed servers."),
        OptionSpec("pin-require-chain", help: "With pins, also require the chain to verify against the CA store."),
        OptionSpec("no-verify-host", help: "Do not check that the certificate names the host (the chain is still verified)."),
        OptionSpec("insecure", short: "k", help: "DISABLE ALL SERVER CHECKS. Anyone on the network can impersonate the server and receive your client certificate."),
    ] + ProxyOptions.specs

    var certificate: String?
    var certificateType: CertificateType?
    var key: String?
    var pkcs11Module: String?
    var password: PasswordSource?
    var literalPasswordUsed = false
    var identityHosts: [String]
    var caFiles: [String]
    var caNative: Bool
    var crlFiles: [String]
    var publicKeyPins: [String]
    var pinnedCertificateFiles: [String]
    var pinRequireChain: Bool
    var verifyHost: Bool
    var insecure: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        certificate = arguments.value("cert")
        key = arguments.value("key")
        pkcs11Module = arguments.value("pkcs11-module")
        if let type = arguments.value("cert-type") {
            guard let parsed = CertificateType(rawValue: type.uppercased() == "PKCS12" ? "P12" : type.uppercased()) else {
                throw UsageError("--cert-type must be P12 or PEM, not \"\(type)\"")
            }
            certificateType = parsed
        }
        let sources = [arguments.value("pass-env"), arguments.value("pass-file"), arguments.value("pass")].compactMap { $0 }
        if sources.count > 1 { throw UsageError("give only one of --pass-env, --pass-file and --pass") }
        if let variable = arguments.value("pass-env") { password = .environment(variable) }
        if let file = arguments.value("pass-file") { password = .file(file) }
        if let literal = arguments.value("pass") {
            password = .literal(Secret(literal))
            literalPasswordUsed = true
        }
        if key != nil, certificate == nil { throw UsageError("--key needs --cert") }
        identityHosts = []
        for text in arguments.all("identity-host") {
            do {
                identityHosts.append(try HostPattern(parsing: text).description)
            } catch {
                throw UsageError("--identity-host \(text): \(error.reason)", hint: "give a host, host:port, *.domain or [IPv6]:port")
            }
        }
        caFiles = arguments.all("cacert")
        caNative = arguments.flag("ca-native")
        crlFiles = arguments.all("crlfile")
        pinnedCertificateFiles = arguments.all("pinnedcert")
        pinRequireChain = arguments.flag("pin-require-chain")
        verifyHost = !arguments.flag("no-verify-host")
        insecure = arguments.flag("insecure")
        publicKeyPins = []
        if let pins = arguments.value("pinnedpubkey") {
            do {
                publicKeyPins = try PublicKeysTrustEvaluator.parsePins(pins)
            } catch {
                throw UsageError("--pinnedpubkey: \(error.summary)", hint: "use the form sha256//BASE64, as `mtls-mirror inspect` prints")
            }
        }
        if insecure && (!publicKeyPins.isEmpty || !pinnedCertificateFiles.isEmpty || !crlFiles.isEmpty) {
            throw UsageError("--insecure cannot be combined with pins or CRLs", hint: "drop --insecure to enforce them")
        }
    }

    var anchors: TrustAnchors {
        if caFiles.isEmpty { return .system }
        return caNative ? .systemAndFiles(caFiles) : .files(caFiles)
    }

    /// The evaluators the options ask for, each with a label, in evaluation order.
    func evaluators() throws -> [any ServerTrustEvaluating] {
        if insecure { return [DisabledTrustEvaluator()] }
        var members: [any ServerTrustEvaluating] = []
        let pinned = !publicKeyPins.isEmpty || !pinnedCertificateFiles.isEmpty
        if !pinnedCertificateFiles.isEmpty {
            var certificates: [CertificateInfo] = []
            for file in pinnedCertificateFiles { certificates += try CertificateInfo.loadPEMFile(file) }
            members.append(PinnedCertificatesTrustEvaluator(
                certificates: certificates, requireChain: pinRequireChain, anchors: anchors, validateHost: verifyHost))
        }
        if !publicKeyPins.isEmpty {
            members.append(PublicKeysTrustEvaluator(
                pins: publicKeyPins, requireChain: pinRequireChain, anchors: anchors, validateHost: verifyHost))
        }
        if !crlFiles.isEmpty {
            members.append(RevocationTrustEvaluator(crlFiles: crlFiles, anchors: anchors, validateHost: verifyHost))
        } else if !pinned {
            members.append(DefaultTrustEvaluator(anchors: anchors, validateHost: verifyHost))
        }
        return members
    }

    /// One evaluator for all the options (a composite when several apply).
    func evaluator() throws -> any ServerTrustEvaluating {
        let members = try evaluators()
        return members.count == 1 ? members[0] : CompositeTrustEvaluator(members)
    }

    /// Loads the identity, if `--cert` was given, resolving the password as the options say
    /// (or prompting on a terminal when the file turns out to need one).
    func loadIdentity(logger: Logger) throws -> ClientIdentity? {
        // libcurl opens on a thread of its own while the identity is read (issue #27).
        CurlGlobal.preload()
        guard let certificate else { return nil }
        if literalPasswordUsed {
            logger.warning("--pass puts the password in the process list and shell history; use --pass-env VAR or --pass-file FILE")
        }
        if TokenIdentityLoader.isToken(certificate: certificate, key: key) {
            return try TokenIdentityLoader(certificate: certificate, key: key, module: pkcs11Module, pin: password).load()
        }
        do {
            if let request = prefetchRequest, let prefetched = IdentityPrefetch.shared.take(request) {
                return try prefetched.get()
            }
            let secret = try password?.resolve(forFile: certificate)
            return try ClientIdentity.load(certificate: certificate, key: key, type: certificateType, password: secret)
        } catch let error {
            // Prompt only when no source was configured and a person is at the terminal.
            guard password == nil, Terminal.isTTY(0) else { throw error }
            switch error {
            case .passwordRequired, .wrongPassword:
                let prompted = try PasswordSource.prompt.resolve(forFile: certificate)
                return try ClientIdentity.load(certificate: certificate, key: key, type: certificateType, password: prompted)
            default:
                throw error
            }
        }
    }

    /// What ``IdentityPrefetch`` may read ahead for these options: a certificate file (not a
    /// token) whose password, if any, needs no prompt; nil otherwise.
    var prefetchRequest: IdentityPrefetch.Request? {
        guard let certificate, !TokenIdentityLoader.isToken(certificate: certificate, key: key) else { return nil }
        if case .prompt = password { return nil }
        return IdentityPrefetch.Request(certificate: certificate, key: key, type: certificateType, password: password)
    }

    /// The identity, trust table and identity scope for requests to `url`.
    func securityPolicy(for url: String, logger: Logger) throws -> SecurityPolicy {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw UsageError("\"\(url)\" is not an absolute URL", hint: "use https://host/path")
        }
        let port = components.port ?? (components.scheme?.lowercased() == "http" ? 80 : 443)
        let trust = ServerTrustManager(fallback: try evaluator())
        let identity = try loadIdentity(logger: logger)
        TLSWarmUp.start(trust: trust, hosts: [host])
        if let identity, let warning = identity.expiryWarning() { logger.warning(warning) }
        if insecure {
            logger.warning("SERVER VERIFICATION IS DISABLED (--insecure): any server can impersonate \(host) and receive your client certificate")
        }
        let scope = HostScope(["\(host):\(port)"] + identityHosts)
        return SecurityPolicy(identity: identity, identityScope: scope, trust: trust)
    }
}
