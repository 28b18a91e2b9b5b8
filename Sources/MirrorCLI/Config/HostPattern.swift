/// Validation of the host patterns the config accepts: `host`, `*.domain`, an IPv4 address, an
/// IPv6 literal in brackets, each optionally with `:port` where ports are allowed.
enum HostPattern {
    /// The pattern lower-cased, or `nil` when it is not a valid host pattern.
    ///
    /// - Parameters:
    ///   - text: the pattern as written.
    ///   - allowPort: accept a `:port` suffix (identity hosts); trust tables match by host only.
    static func normalized(_ text: String, allowPort: Bool) -> String? {
        var host = Substring(text.lowercased())
        if let close = host.lastIndex(of: "]"), host.first == "[" {
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (allowPort && rest.first == ":" && isPort(rest.dropFirst())) else { return nil }
            let inside = host[host.index(after: host.startIndex)..<close]
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            return String(host)
        }
        if let colon = host.lastIndex(of: ":") {
            guard allowPort, isPort(host[host.index(after: colon)...]) else { return nil }
            host = host[..<colon]
        }
        if host.hasPrefix("*.") { host = host.dropFirst(2) }
        if host.hasSuffix(".") { host = host.dropLast() }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !host.isEmpty, host.count <= 253, labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }) else { return nil }
        return text.lowercased()
    }

    private static func isPort(_ text: Substring) -> Bool {
        guard let port = Int(text), text.allSatisfy(\.isNumber) else { return false }
        return (1...65535).contains(port)
    }
}
