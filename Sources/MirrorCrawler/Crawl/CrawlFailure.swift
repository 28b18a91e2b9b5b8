import MirrorCore
import MirrorHTTP
import MirrorStore

/// One URL's failure as the crawl keeps it: its kind, the one-line cause the report shows, and
/// the typed error with its evidence (the pins expected and seen, the errno, the limit and the
/// value), so that the exit code and the hint of a failed start URL come from the error itself.
public struct CrawlFailure: Sendable {
    /// The typed error behind a failure, when there was one.
    public enum Evidence: Sendable {
        case http(HTTPError)
        case store(StoreError)
        case none
    }

    public let kind: FailureKind
    /// One line, as the report gives it (`HTTP 404`, `disallowed by robots.txt`, the error's summary).
    public let cause: String
    public let evidence: Evidence

    public init(kind: FailureKind, cause: String, evidence: Evidence = .none) {
        self.kind = kind
        self.cause = cause
        self.evidence = evidence
    }

    /// The failure of a fetch, with the error as its evidence.
    public init(_ error: HTTPError) {
        self.init(kind: FailureKind(error), cause: error.summary, evidence: .http(error))
    }

    /// A local file that could not be written.
    public init(_ error: StoreError) {
        self.init(kind: .io, cause: error.summary, evidence: .store(error))
    }

    /// The error's own category when there is one (a store error knows a full disk from a
    /// permission), else the kind's.
    public var category: ErrorCategory {
        switch evidence {
        case .http(let error): error.category
        case .store(let error): error.category
        case .none: kind.category
        }
    }

    /// What to do about it, from the error's evidence; empty when the kind says nothing more.
    public var hint: String {
        switch evidence {
        case .http(let error): error.hint
        case .store(let error): error.hint
        case .none:
            switch kind {
            case .robots: "the site's robots.txt forbids it; mirror it only if you may, with robots.txt ignored"
            case .redirectOutOfScope: "the start URL redirects out of the scope: start from the redirect's target, or widen the scope"
            default: ""
            }
        }
    }
}
