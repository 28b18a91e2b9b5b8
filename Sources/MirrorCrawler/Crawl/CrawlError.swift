import MirrorCore
import MirrorRender
import MirrorStore

/// Why a crawl produced no snapshot.
public enum CrawlError: DiagnosableError, Sendable {
    /// The job is unusable (no start URL, a bad scope rule).
    case invalidJob(String)
    /// The site folder could not be written; the previous snapshot is untouched.
    case store(StoreError)
    /// Every start URL failed; nothing was published. `failure` is the first start URL's, with
    /// its typed evidence (the trust verdict, the status, the errno).
    case startFailed(url: String, failure: CrawlFailure)
    /// Interrupted (SIGINT/SIGTERM); the previous snapshot is untouched.
    case cancelled
    /// Render mode's browser cannot be used (exit code 12); nothing was fetched.
    case render(RenderError)

    public var category: ErrorCategory {
        switch self {
        case .invalidJob: .usage
        case .store(let error): error.category
        case .startFailed(_, let failure): failure.category
        case .cancelled: .network
        case .render(let error): error.category
        }
    }

    public var summary: String {
        switch self {
        case .invalidJob(let reason): "invalid mirror job: \(reason)"
        case .store(let error): error.summary
        case .startFailed(let url, let failure): "nothing mirrored: the start URL \(url) failed: \(failure.cause)"
        case .cancelled: "interrupted; the previous snapshot is still current"
        case .render(let error): error.summary
        }
    }

    public var hint: String {
        switch self {
        case .invalidJob: "check the start URLs and the scope's include and exclude rules"
        case .store(let error): error.hint
        case .startFailed(_, let failure): failure.hint
        case .cancelled: ""
        case .render(let error): error.hint
        }
    }
}
