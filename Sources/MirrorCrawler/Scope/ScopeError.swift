import MirrorCore

/// Why a crawl scope could not be built from its configuration.
public enum ScopeError: DiagnosableError, Equatable {
    /// A `regex:` path rule does not compile.
    case invalidRegex(pattern: String, reason: String)
    /// A path rule is empty (`""` or `"regex:"`), which would match everything or nothing.
    case emptyPathRule(rule: String)
    /// A requisite host pattern is not `host`, `host:port` or `*.domain`.
    case invalidHostPattern(pattern: String)
    /// No start URL was given, so there is no origin to crawl.
    case emptyStartList

    public var category: ErrorCategory { .usage }

    public var summary: String {
        switch self {
        case .invalidRegex(let pattern, let reason):
            return "path rule regex '\(pattern)' is invalid: \(reason)"
        case .emptyPathRule(let rule):
            return "path rule '\(rule)' is empty"
        case .invalidHostPattern(let pattern):
            return "requisite host pattern '\(pattern)' is invalid"
        case .emptyStartList:
            return "no start URL was given"
        }
    }

    public var hint: String {
        switch self {
        case .invalidRegex:
            return "write 'regex:' followed by an ICU regular expression matched against path and query, e.g. regex:^/docs/.*\\.html$"
        case .emptyPathRule:
            return "give a path prefix such as /docs/ or a pattern such as regex:^/a/"
        case .invalidHostPattern:
            return "use host, host:port or *.domain, e.g. cdn.example.com or *.example.net"
        case .emptyStartList:
            return "give at least one https:// start URL"
        }
    }
}
