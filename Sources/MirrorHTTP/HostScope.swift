import MirrorCore

/// The hosts that receive the client identity: ``MirrorCore/HostPattern``s (`example.com`,
/// `example.com:8443`, `*.example.com`, `[::1]:8443`), matched as that type matches.
///
/// A text that is not a valid pattern is left out, so it can never widen the scope; the
/// command line and config.json refuse such patterns before they get here.
public struct HostScope: Sendable, Equatable {
    public let patterns: [HostPattern]

    /// A scope of these patterns.
    public init(patterns: [HostPattern]) {
        self.patterns = patterns
    }

    /// A scope of these pattern texts (invalid ones are left out).
    public init(_ texts: [String]) {
        patterns = texts.compactMap { try? HostPattern(parsing: $0) }
    }

    /// The scope of exactly one origin: `host:port`.
    public static func origin(host: String, port: Int) -> HostScope {
        HostScope(patterns: HostPattern(host: host, port: port).map { [$0] } ?? [])
    }

    /// Whether `host` on `port` is in the scope.
    public func contains(host: String, port: Int) -> Bool {
        guard let name = HostName.canonical(host) else { return false }
        return patterns.contains { $0.matches(canonical: name, port: port) }
    }
}
