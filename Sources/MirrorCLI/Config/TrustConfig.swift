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

    /// The policy for `host`: an exact pattern first, then the longest matching wildcard
    /// (which covers subdomains only, not the bare domain), then the default.
    ///
    /// - Parameter host: a host name, matched case-insensitively; a trailing dot is ignored.
    /// - Returns: the policy, or `nil` when the host has none (it fails closed).
    public func policy(forHost host: String) -> TrustPolicyConfig? {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        if let exact = hosts.first(where: { $0.pattern == name }) { return exact.policy }
        let wildcard = hosts
            .filter { $0.pattern.hasPrefix("*.") && name.hasSuffix($0.pattern.dropFirst()) && name.count > $0.pattern.count - 1 }
            .max { $0.pattern.count < $1.pattern.count }
        return wildcard?.policy ?? defaultPolicy
    }
}
