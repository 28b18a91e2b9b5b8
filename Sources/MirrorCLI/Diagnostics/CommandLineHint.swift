import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorScheduler
import MirrorServer
import MirrorTLS

/// The hints of the command line. The library's errors say what to change in words that fit
/// any caller (a config file, another program); this layer, which owns the flags, says which
/// flag changes it. It decides from the typed error, never from the hint's text, and falls back
/// to the error's own hint.
enum CommandLineHint {
    /// What to do about `error`, naming the flag when one fixes it.
    static func hint(for error: any DiagnosableError) -> String {
        switch error {
        case let error as HTTPError: hint(for: error)
        case let error as TrustError: hint(for: error)
        case let error as IdentityError: hint(for: error)
        case let error as TokenError: hint(for: error)
        case let error as ProxyError: hint(for: error)
        case let error as CrawlError: hint(for: error)
        case ServerError.remoteBindRefused: "serve on 127.0.0.1, or pass --allow-remote together with an access token"
        case UnitFileError.cronCannotExpress:
            "use --print-systemd (a timer takes any interval), run `mtls-mirror schedule` in the foreground, or pick an interval such as 15m, 1h, 6h or 24h"
        case UnitFileError.noInterval:
            "set sites[].refresh.every in config.json (e.g. \"6h\"), or leave the site out with --site"
        default: error.hint
        }
    }

    static func hint(for error: HTTPError) -> String {
        switch error {
        case .serverTrust(_, let trust): hint(for: trust)
        case .clientCertificateRejected(_, false, _):
            "pass --cert FILE (PKCS#12 or PEM) with --pass-env VAR, and make sure this host is in the identity's scope (--identity-host)"
        case .clientIdentity: "check the --cert/--key files with `mtls-mirror inspect`"
        case .timeout: "raise --connect-timeout / --max-time, or check the server"
        case .bodyTooLarge: "raise --max-file-size"
        case .decompressionBomb: "the server sent a suspicious compressed body; raise --max-decompression-ratio only if you trust it"
        case .tooManyRedirects: "the site redirects in a loop or too deep; raise --max-redirs if it is legitimate"
        case .proxyRefused(_, _, 407):
            "the proxy wants credentials: --proxy-user NAME with --proxy-pass-env VAR (config: proxy.user, proxy.password)"
        case .proxyRefused:
            "ask the proxy's administrators to allow CONNECT to this host and port, or reach it directly with --noproxy HOST"
        case .proxyUnreachable:
            "check --proxy (host, port, http:// or https://), and --proxy-cacert for an HTTPS proxy with a private CA"
        default: error.hint
        }
    }

    static func hint(for error: TrustError) -> String {
        if error.isUnknownIssuer {
            return "pass --cacert FILE with the CA that issued the server's certificate; "
                + "run `mtls-mirror inspect URL` to see the chain the server sends"
        }
        return error.hint
    }

    static func hint(for error: IdentityError) -> String {
        switch error {
        case .wrongPassword: "check the password source (--pass-env, --pass-file or the prompt)"
        case .passwordRequired: "give the password with --pass-env VAR, --pass-file FILE, or run on a terminal to be prompted"
        case .noPrivateKey: "pass the key file with --key FILE, or use a PEM file that holds the key too"
        case .noTerminalForPrompt: "run interactively, or use --pass-env VAR or --pass-file FILE"
        default: error.hint
        }
    }

    static func hint(for error: TokenError) -> String {
        switch error {
        case .pinInURI: "remove the PIN from the URI; give it with --pass-env VAR or --pass-file FILE, or type it at the prompt"
        case .moduleMissing(_, nil):
            "install your token's PKCS#11 module (softhsm2, opensc, or the vendor's package), or name it with --pkcs11-module FILE"
        case .keyAbsent, .certificateAbsent:
            "fix object= or id= in the URI (`pkcs11-tool --login -O` lists the objects), or give the certificate as a file with --cert FILE --key 'pkcs11:…'"
        case .wrongPIN(_, let status) where !(status.finalTry || status.locked):
            "check the PIN source (--pass-env, --pass-file or the prompt); each wrong try counts against the token's limit"
        default: error.hint
        }
    }

    static func hint(for error: ProxyError) -> String {
        switch error {
        case .credentialsInURL:
            "give the user with --proxy-user NAME and the password with --proxy-pass-env VAR or --proxy-pass-file FILE"
        default: error.hint
        }
    }

    static func hint(for error: CrawlError) -> String {
        switch error {
        case .invalidJob: "check the start URLs and --include/--exclude patterns"
        case .startFailed(_, let failure):
            switch failure.evidence {
            case .http(let cause): hint(for: cause)
            case .store: error.hint
            case .none:
                switch failure.kind {
                case .robots: "the site's robots.txt forbids it; pass --ignore-robots if you may mirror it"
                case .redirectOutOfScope: "start from the redirect's target (the report names it)"
                default: error.hint.isEmpty ? "run `mtls-mirror fetch URL` with the same options to see the failure alone" : error.hint
                }
            }
        default: error.hint
        }
    }
}
