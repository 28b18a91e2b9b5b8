import MirrorCrawler

/// Which URLs a site's crawl follows.
public struct ScopeConfig: Sendable, Equatable {
    /// A rule matched against a URL's path (with its query).
    public enum Pattern: Sendable, Equatable {
        /// The path starts with this text (`"/docs/"`).
        case prefix(String)
        /// The path matches this regular expression (`"regex:^/api/v[0-9]+/"` in the config);
        /// it compiled when the config was loaded.
        case regex(String)
    }

    /// Follow only paths matching one of these; empty means everything.
    public var include: [Pattern] = []
    /// Never follow paths matching one of these (wins over ``include``).
    public var exclude: [Pattern] = []
    /// Do not go above the start URL's folder. Default `false`.
    public var noParent = false
    /// Link depth limit from the start URLs (absent: 20, as Heritrix's `TooManyHopsDecideRule`);
    /// `nil` (`null` in the file) means unlimited.
    public var depth: Int? = TrapRules.defaultDepth
    /// Other hosts from which page requisites (images, CSS, scripts) may be fetched.
    public var requisiteHosts: [String] = []
    /// Obey robots.txt. Default `true`.
    public var robots = true

    /// The defaults: everything on the start hosts, robots.txt obeyed.
    public init() {}
}
