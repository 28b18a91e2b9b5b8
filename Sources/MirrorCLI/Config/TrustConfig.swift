import MirrorCore

/// A site's server-trust table: per-host policies and the policy for every other host.
public struct TrustConfig: Sendable, Equatable {
    /// One row of the table: a host (`cdn.example.com`) or wildcard (`*.example.com`) and its policy.
    public struct HostPolicy: Sendable, Equatable {
        /// The host pattern, lower-cased.
        public var pattern: String
        /// The policy for hosts the pattern matches.
        public var policy: TrustPolicyConfig

        /// Creates a row.
        public init(pattern: String, policy: TrustPolicyConfig) {
            self.pattern = pattern
            self.policy = policy
        }
    }

    /// The policy for hosts not in ``hosts``; `nil` means such hosts FAIL CLOSED.
    public var defaultPolicy: TrustPolicyConfig?
    /// The per-host policies, in the order the config lists them.
    public var hosts: [HostPolicy]

    /// Creates a table; the default is the system CA store for every host.
    public init(defaultPolicy: TrustPolicyConfig? = .systemDefault, hosts: [HostPolicy] = []) {
        self.defaultPolicy = defaultPolicy
        self.hosts = hosts
    }

    /// Whether a host no pattern matches is refused.
    public var failsClosed: Bool { defaultPolicy == nil }

    /// The policy for `host`: the most specific matching pattern (an exact host before any
    /// wildcard, a longer wildcard before a shorter; a wildcard covers subdomains only), then
    /// the default. Matched by ``MirrorCore/HostPattern``, as the trust manager built from this
    /// table matches (``makeManager()``).
    ///
    /// - Parameter host: a host name in any spelling (case, trailing dot, IDNA, IPv6 brackets).
    /// - Returns: the policy, or `nil` when the host has none (it fails closed).
    public func policy(forHost host: String) -> TrustPolicyConfig? {
        let table = HostPatternTable(hosts.compactMap { row in
            (try? HostPattern(parsing: row.pattern, allowPort: false)).map { ($0, row.policy) }
        })
        return table.value(forHost: host) ?? defaultPolicy
    }
}
