/// The host → policy table.
///
/// Patterns are exact hosts (case-insensitive, a trailing dot ignored) or `*.example.com`, which
/// matches one or more labels below `example.com` but not `example.com` itself. An exact pattern
/// beats any wildcard; among wildcards the longest wins. With `allHostsMustBeEvaluated` (the
/// default) an unknown host is refused (fail closed); without it, it gets ``DefaultTrustEvaluator``
/// with the system anchors.
public struct ServerTrustManager: Sendable {
    private let exact: [String: any ServerTrustEvaluating]
    private let wildcards: [(suffix: String, evaluator: any ServerTrustEvaluating)]
    /// Whether an unknown host is refused.
    public let allHostsMustBeEvaluated: Bool
    private let fallback: (any ServerTrustEvaluating)?

    /// Creates the table. For a pattern given twice, the later entry wins.
    ///
    /// - Parameters:
    ///   - evaluators: patterns and their policies.
    ///   - allHostsMustBeEvaluated: refuse hosts no pattern matches; on by default.
    public init(evaluators: [(pattern: String, evaluator: any ServerTrustEvaluating)], allHostsMustBeEvaluated: Bool = true) {
        self.init(evaluators: evaluators, allHostsMustBeEvaluated: allHostsMustBeEvaluated, fallback: nil)
    }

    /// A table whose unknown hosts use `fallback` (the policy given on the command line applies
    /// to every host).
    ///
    /// - Parameters:
    ///   - evaluators: host patterns and their evaluators; may be empty.
    ///   - fallback: the evaluator for every host the table does not name.
    public init(evaluators: [(pattern: String, evaluator: any ServerTrustEvaluating)] = [], fallback: any ServerTrustEvaluating) {
        self.init(evaluators: evaluators, allHostsMustBeEvaluated: false, fallback: fallback)
    }

    private init(evaluators: [(pattern: String, evaluator: any ServerTrustEvaluating)], allHostsMustBeEvaluated: Bool, fallback: (any ServerTrustEvaluating)?) {
        self.fallback = fallback
        var exact: [String: any ServerTrustEvaluating] = [:]
        var wildcards: [String: any ServerTrustEvaluating] = [:]
        for (pattern, evaluator) in evaluators {
            let normalized = Self.normalize(pattern)
            if normalized.hasPrefix("*."), normalized.count > 2 {
                wildcards[String(normalized.dropFirst())] = evaluator  // keeps the leading dot
            } else {
                exact[normalized] = evaluator
            }
        }
        self.exact = exact
        self.wildcards = wildcards.map { (suffix: $0.key, evaluator: $0.value) }.sorted { $0.suffix.count > $1.suffix.count }
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
    }

    /// The policy for `host`.
    ///
    /// - Parameter host: a host name or IP literal (IPv6 brackets allowed).
    /// - Returns: the matching policy, or ``DefaultTrustEvaluator`` when nothing matches and not
    ///   all hosts must be evaluated.
    /// - Throws: ``TrustError/noEvaluatorForHost(host:)`` when nothing matches and all hosts must be evaluated.
    public func evaluator(forHost host: String) throws(TrustError) -> any ServerTrustEvaluating {
        let name = Self.normalize(host)
        if let match = exact[name] { return match }
        if let match = wildcards.first(where: { name.hasSuffix($0.suffix) && name.count > $0.suffix.count }) {
            return match.evaluator
        }
        guard !allHostsMustBeEvaluated else { throw .noEvaluatorForHost(host: host) }
        return fallback ?? DefaultTrustEvaluator()
    }

    /// Lower-case, without IPv6 brackets or a trailing dot.
    static func normalize(_ host: String) -> String {
        HostnameValidation.normalized(host.lowercased())
    }
}
