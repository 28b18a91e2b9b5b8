/// A set of hosts, written as patterns: `example.com`, `example.com:8443`, `*.example.com`.
///
/// A pattern without a port matches every port of that host; `*.example.com` matches hosts
/// below example.com but not example.com itself. Matching ignores case and a trailing dot.
/// Used for the client identity's scope: the identity is sent only to hosts in it.
public struct HostScope: Sendable, Equatable {
    public let patterns: [String]

    public init(_ patterns: [String]) {
        self.patterns = patterns.map { $0.lowercased() }
    }

    /// The scope of exactly one origin: `host:port`.
    public static func origin(host: String, port: Int) -> HostScope {
        HostScope(["\(host):\(port)"])
    }

    public func contains(host rawHost: String, port: Int) -> Bool {
        let host = Self.normalise(rawHost)
        for pattern in patterns {
            var name = Substring(pattern)
            var patternPort: Int?
            if let colon = pattern.lastIndex(of: ":"), !pattern.hasSuffix("]"),
               pattern.firstIndex(of: ":") == colon || pattern.hasPrefix("["),
               let parsed = Int(pattern[pattern.index(after: colon)...]) {
                name = pattern[..<colon]
                patternPort = parsed
            }
            if let patternPort, patternPort != port { continue }
            let normalised = Self.normalise(String(name))
            if normalised.hasPrefix("*.") {
                let suffix = normalised.dropFirst(1)
                if host.hasSuffix(suffix), host.count > suffix.count { return true }
            } else if normalised == host {
                return true
            }
        }
        return false
    }

    static func normalise(_ host: String) -> String {
        var h = host.lowercased()
        if h.hasPrefix("["), h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        while h.hasSuffix(".") { h.removeLast() }
        return h
    }
}
