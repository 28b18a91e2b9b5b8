/// What a crawl may fetch, besides the start URLs' own origins.
///
/// The default scope is the start URLs' origins (same scheme, host and port). Within it:
/// - include and exclude rules and `noParent` decide which **pages** are crawled;
/// - `maxDepth` limits how many links away from a start URL a page may be;
/// - **requisites** (images, styles, scripts, fonts, media) on a start origin are always
///   fetched, whatever the rules and the depth, so every mirrored page renders.
///
/// Off the start origins, only requisites on ``requisiteHosts`` are fetched (CDNs); pages
/// there are never crawled.
public struct ScopeConfiguration: Sendable, Equatable {
    /// If non-empty, a page's path and query must match one of these rules.
    public var includes: [PathRule] = []
    /// A page whose path and query match one of these rules is not crawled.
    public var excludes: [PathRule] = []
    /// Pages must be at or below the directory of a start URL on the same origin.
    public var noParent: Bool = false
    /// The largest link depth of a page from a start URL (start URLs are 0); nil for none.
    public var maxDepth: Int? = nil
    /// Host patterns whose requisites are fetched: `host` (any port), `host:port`, or
    /// `*.domain` (any subdomain of `domain`, not `domain` itself).
    public var requisiteHosts: [String] = []

    /// Creates a configuration; every parameter defaults to the unrestricted same-origin crawl.
    /// - Parameters:
    ///   - includes: rules of which a page must match one, when non-empty.
    ///   - excludes: rules that exclude a page.
    ///   - noParent: keep pages at or below the start URLs' directories.
    ///   - maxDepth: the deepest page link depth, or nil for unlimited.
    ///   - requisiteHosts: host patterns whose requisites are fetched.
    public init(
        includes: [PathRule] = [], excludes: [PathRule] = [], noParent: Bool = false,
        maxDepth: Int? = nil, requisiteHosts: [String] = []
    ) {
        self.includes = includes
        self.excludes = excludes
        self.noParent = noParent
        self.maxDepth = maxDepth
        self.requisiteHosts = requisiteHosts
    }
}
