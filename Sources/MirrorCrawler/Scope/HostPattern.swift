import MirrorCore

/// A parsed requisite host pattern: `host`, `host:port`, `*.domain` or `*.domain:port`.
struct HostPattern: Sendable, Equatable {
    /// The lower-cased host, or the domain after `*.` for a wildcard.
    let host: String
    /// True for `*.domain`: any subdomain of ``host`` at any level, not ``host`` itself.
    let isWildcard: Bool
    /// The port that must match the URL's effective port, or nil for any port.
    let port: Int?

    /// Parses a pattern as written in a configuration.
    /// - Throws: ``ScopeError/invalidHostPattern(pattern:)`` for anything else.
    init(parsing text: String) throws(ScopeError) {
        var rest = Substring(text.lowercased())
        var wildcard = false
        if rest.hasPrefix("*.") {
            wildcard = true
            rest = rest.dropFirst(2)
        }
        var hostPart = rest
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .invalidHostPattern(pattern: text) }
            hostPart = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidHostPattern(pattern: text) }
                portPart = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        let forbidden: Set<Character> = ["/", "\\", "@", "*", "?", "#", ":", " ", "%"]
        guard !hostPart.isEmpty, hostPart != ".",
              hostPart.hasPrefix("[") || !hostPart.contains(where: { forbidden.contains($0) || $0.isWhitespace })
        else { throw .invalidHostPattern(pattern: text) }
        if wildcard, hostPart.hasPrefix("[") { throw .invalidHostPattern(pattern: text) }
        var port: Int?
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portPart), value <= 65535
            else { throw .invalidHostPattern(pattern: text) }
            port = value
        }
        self.host = String(hostPart)
        self.isWildcard = wildcard
        self.port = port
    }

    /// Whether `url`'s host (and port, when the pattern names one) matches.
    func matches(_ url: WebURL) -> Bool {
        if let port, port != url.effectivePort { return false }
        if isWildcard {
            return url.host.hasSuffix("." + host)
        }
        return url.host == host
    }
}
