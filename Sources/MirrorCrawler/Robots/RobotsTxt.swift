/// A parsed `robots.txt` (RFC 9309, the Robots Exclusion Protocol).
///
/// Parsing never fails: lines it does not understand are ignored, as the RFC asks. Rules are
/// grouped by the `User-Agent` lines before them; a crawler obeys the groups naming its
/// product token (matched case-insensitively, several such groups are combined), or else the
/// `*` groups, or else nothing is disallowed. Within the obeyed rules the longest matching
/// pattern wins and `Allow` wins a tie. Patterns support `*` (any run of characters) and a
/// final `$` (end of the URL); percent-encoding is normalised on both sides before matching.
/// `/robots.txt` itself is always allowed.
public struct RobotsTxt: Sendable {
    /// One `Allow` or `Disallow` line.
    struct Rule: Sendable {
        let allow: Bool
        let pattern: RobotsPattern
    }

    /// The rules following one run of `User-Agent` lines.
    struct Group: Sendable {
        /// Lower-cased product tokens, or `*`.
        var agents: [String]
        var rules: [Rule]
        var crawlDelay: Double?
    }

    let groups: [Group]
    /// The `Sitemap:` URLs, as written, in file order.
    public let sitemaps: [String]

    /// A file that allows everything: what applies when a site has no `robots.txt` (404).
    public static let allowAll = RobotsTxt(groups: [], sitemaps: [])

    /// The number of bytes parsed; the rest of a larger file is ignored (RFC 9309 §2.5 asks
    /// crawlers to parse at least 500 KiB).
    public static let maximumSize = 500 * 1024

    init(groups: [Group], sitemaps: [String]) {
        self.groups = groups
        self.sitemaps = sitemaps
    }

    /// Whether a crawler may fetch a path.
    /// - Parameters:
    ///   - pathAndQuery: the URL's path and query (`/a/b?x=1`), as in an HTTP request line.
    ///   - userAgent: the crawler's user agent; only its product token (the leading run of
    ///     letters, `-` and `_`, e.g. `mtls-mirror` in `mtls-mirror/1.0`) is compared.
    public func isAllowed(_ pathAndQuery: String, userAgent: String) -> Bool {
        Self.isAllowed(pathAndQuery, rules: rules(for: userAgent))
    }

    /// The rules that apply to a user agent, in file order: what ``isAllowed(_:rules:)`` needs,
    /// worked out once per site instead of at every URL.
    func rules(for userAgent: String) -> [Rule] {
        obeyedGroups(for: userAgent).flatMap(\.rules)
    }

    /// ``isAllowed(_:userAgent:)`` with the user agent's rules already chosen.
    static func isAllowed(_ pathAndQuery: String, rules: [Rule]) -> Bool {
        let target = pathAndQuery.isEmpty ? "/" : pathAndQuery
        if target == "/robots.txt" { return true }
        guard !rules.isEmpty else { return true }
        let path = RobotsPattern.normalize(Array(target.utf8))
        var best: Rule?
        for rule in rules where rule.pattern.matches(path) {
            guard let current = best else {
                best = rule
                continue
            }
            if rule.pattern.length > current.pattern.length
                || (rule.pattern.length == current.pattern.length && rule.allow && !current.allow) {
                best = rule
            }
        }
        return best?.allow ?? true
    }

    /// The `Crawl-delay` in seconds that applies to a user agent, if the file gives one.
    ///
    /// Crawl-delay is not part of RFC 9309 but is widely used; the first value in the obeyed
    /// groups counts. Negative or non-numeric values are ignored.
    /// - Parameter userAgent: the crawler's user agent (see ``isAllowed(_:userAgent:)``).
    public func crawlDelay(userAgent: String) -> Double? {
        obeyedGroups(for: userAgent).lazy.compactMap(\.crawlDelay).first
    }

    /// The groups naming the user agent's product token, or else the `*` groups.
    func obeyedGroups(for userAgent: String) -> [Group] {
        let token = RobotsTxt.productToken(userAgent)
        if !token.isEmpty {
            let named = groups.filter { $0.agents.contains(token) }
            if !named.isEmpty { return named }
        }
        return groups.filter { $0.agents.contains("*") }
    }

    /// The lower-cased leading run of letters, `-` and `_` (RFC 9309 §2.2.1), or `*`.
    static func productToken(_ text: some StringProtocol) -> String {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("*") { return "*" }
        let token = trimmed.prefix { ($0.isASCII && $0.isLetter) || $0 == "-" || $0 == "_" }
        return token.lowercased()
    }
}
