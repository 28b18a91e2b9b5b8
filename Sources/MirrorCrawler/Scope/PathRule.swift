/// A rule that matches a URL's path and query (`/a/b?x=1`), used by include and exclude lists.
///
/// Rules are matched against ``MirrorCore/WebURL/requestTarget``, the normalised, still
/// percent-encoded path plus `?query`, so a rule should be written in that form
/// (`/caf%C3%A9/`, not `/café/`).
public enum PathRule: Sendable, Equatable {
    /// Matches when the path and query start with this text (`/docs/`).
    case prefix(String)
    /// Matches when this ICU regular expression finds a match anywhere in the path and query;
    /// anchor it with `^`/`$` as needed.
    case regex(String)

    /// The marker that introduces a regular expression rule.
    public static let regexMarker = "regex:"

    /// Parses a rule as written in a configuration: `regex:<pattern>` or a plain prefix.
    ///
    /// A prefix that does not start with `/` gets one, so `docs/` means `/docs/`. The regex is
    /// only checked when a ``CrawlScope`` compiles it.
    /// - Parameter text: the rule text, e.g. `"/docs/"` or `"regex:^/a/.*\\.pdf$"`.
    /// - Throws: ``ScopeError/emptyPathRule(rule:)`` when the prefix or pattern is empty.
    public static func parse(_ text: String) throws(ScopeError) -> PathRule {
        if text.hasPrefix(regexMarker) {
            let pattern = String(text.dropFirst(regexMarker.count))
            guard !pattern.isEmpty else { throw .emptyPathRule(rule: text) }
            return .regex(pattern)
        }
        guard !text.isEmpty else { throw .emptyPathRule(rule: text) }
        return .prefix(text.hasPrefix("/") ? text : "/" + text)
    }
}
