/// What a crawl does with one discovered URL.
public enum ScopeDecision: Sendable, Equatable {
    /// In scope: fetch it, parse it and follow its links.
    case page
    /// A page requisite: fetch it, parse it only if it is CSS, and follow no `<a>` links from it.
    case requisite
    /// Outside the crawl's origins: leave the link absolute and list it in the report.
    case outOfScope(reason: String)
    /// On a crawled origin but refused by the include, exclude or no-parent rules (or too long).
    case excluded(reason: String)
    /// A page deeper than the configured maximum depth.
    case tooDeep

    /// True for ``page`` and ``requisite``: the URL is fetched.
    public var isFetched: Bool {
        switch self {
        case .page, .requisite: return true
        case .outOfScope, .excluded, .tooDeep: return false
        }
    }
}
