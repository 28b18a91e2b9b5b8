import MirrorCore

/// The host → policy table.
///
/// Patterns are exact hosts (case-insensitive, a trailing dot ignored) or `*.example.com`, which
/// matches one or more labels below `example.com` but not `example.com` itself. An exact pattern
/// beats any wildcard; among wildcards the longest wins. With `allHostsMustBeEvaluated` (the
/// default) an unknown host is refused (fail closed); without it, it gets ``DefaultTrustEvaluator``
/// with the system anchors.
public struct ServerTrustManager: Sendable {
    private let table: HostPatternTable<any ServerTrustEvaluating>
    /// Whether an unknown host is refused.
    public let allHostsMustBeEvaluated: Bool
    private let fallback: (any ServerTrustEvaluating)?

    /// Creates the table. For a pattern given twice, the later entry wins; a pattern text
    /// that is not a ``MirrorCore/HostPattern`` is left out (its hosts then fail closed).
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
        table = HostPatternTable(evaluators.compactMap { entry in
            (try? HostPattern(parsing: entry.pattern, allowPort: false)).map { ($0, entry.evaluator) }
        })
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
    }

    /// The policy for `host`.
    ///
    /// - Parameter host: a host name or IP literal (IPv6 brackets allowed).
    /// - Returns: the matching policy, or ``DefaultTrustEvaluator`` when nothing matches and not
    ///   all hosts must be evaluated.
    /// - Throws: ``TrustError/noEvaluatorForHost(host:)`` when nothing matches and all hosts must be evaluated.
    public func evaluator(forHost host: String) throws(TrustError) -> any ServerTrustEvaluating {
        if let match = table.value(forHost: host) { return match }
        guard !allHostsMustBeEvaluated else { throw .noEvaluatorForHost(host: host) }
        return fallback ?? DefaultTrustEvaluator()
    }

    /// Whether a policy of the table (not the fallback) covers `host`.
    /// Prepares the evaluators of `hosts` (``ServerTrustEvaluating/prepare()``).
    public func prepare(hosts: [String]) {
        for host in hosts { (try? evaluator(forHost: host))?.prepare() }
    }

    public func names(host: String) -> Bool { table.value(forHost: host) != nil }
}
