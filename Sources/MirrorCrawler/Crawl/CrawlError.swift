import MirrorCore
import MirrorRender
import MirrorStore

/// Why a crawl produced no snapshot.
public enum CrawlError: DiagnosableError, Sendable {
    /// The job is unusable (no start URL, a bad scope rule).
    case invalidJob(String)
    /// The site folder could not be written; the previous snapshot is untouched.
    case store(StoreError)
    /// Every start URL failed; nothing was published. `kind` is the report's failure kind.
    case startFailed(url: String, kind: String, cause: String, error: String)
    /// Interrupted (SIGINT/SIGTERM); the previous snapshot is untouched.
    case cancelled
    /// Render mode's browser cannot be used (exit code 12); nothing was fetched.
    case render(RenderError)

    public var category: ErrorCategory {
        switch self {
        case .invalidJob: .usage
        case .store(let error): error.category
        case .startFailed(_, let kind, _, _):
            switch kind {
            case "server-trust": .serverTrust
            case "client-certificate-rejected": .clientCertificateRejected
            case "client-identity": .clientIdentity
            case "too-large", "decompression-bomb", "too-many-redirects", "redirect-refused": .limit
            case "io": .io
            case "robots", "redirect-out-of-scope": .usage
            default: kind.hasPrefix("http-") ? .http : .network
            }
        case .cancelled: .network
        case .render(let error): error.category
        }
    }

    public var summary: String {
        switch self {
        case .invalidJob(let reason): "invalid mirror job: \(reason)"
        case .store(let error): error.summary
        case .startFailed(let url, _, let cause, _): "nothing mirrored: the start URL \(url) failed: \(cause)"
        case .cancelled: "interrupted; the previous snapshot is still current"
        case .render(let error): error.summary
        }
    }

    public var hint: String {
        switch self {
        case .invalidJob: "check the start URLs and --include/--exclude patterns"
        case .store(let error): error.hint
        case .startFailed(_, let kind, _, _):
            switch kind {
            case "server-trust": "run `mtls-mirror inspect URL` to see the server's chain and pins"
            case "client-certificate-rejected": "check --cert and that the server trusts its issuer"
            case "robots": "the site's robots.txt forbids it; pass --ignore-robots if you may mirror it"
            default: "run `mtls-mirror fetch URL` with the same options to see the failure alone"
            }
        case .cancelled: ""
        case .render(let error): error.hint
        }
    }
}
