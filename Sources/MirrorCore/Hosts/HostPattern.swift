#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host pattern, the single type that decides which hosts receive the client certificate
/// (the identity scope), which trust policy a host gets (the trust table), and where requisites
/// may come from: `host`, `host:port`, `*.domain`, `*.domain:port`, an IPv4 address, or an IPv6
/// literal in brackets (`[::1]`, `[::1]:8443`).
///
/// Matching ignores case and a trailing dot, and compares IDNA A-labels (``HostName``), so
/// `Bücher.example.` and `xn--bcher-kva.example` are one host. `*.domain` matches every host
/// one or more labels below `domain`, not `domain` itself. A pattern without a port matches
/// every port. Wildcards are refused for IP addresses.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// The canonical host, or the domain after `*.` for a wildcard.
    public let host: String
    /// True for `*.domain`.
    public let isWildcard: Bool
    /// The port a host must have, or nil for any.
    public let port: Int?

    /// Why a pattern was refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The pattern as written.
        public let pattern: String
        /// What is wrong with it.
        public let reason: String
        public var description: String { "host pattern \"\(pattern)\": \(reason)" }
    }

    /// Parses a pattern as written in a configuration or on the command line.
    /// - Parameters:
    ///   - text: the pattern.
    ///   - allowPort: accept a `:port` suffix.
    /// - Throws: ``ParseError`` naming the cause.
    public init(parsing text: String, allowPort: Bool = true) throws(ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(pattern: text, reason: reason) }
        var rest = Substring(text.trimmingWhitespace())
        var wildcard = false
        if rest.hasPrefix("*.") {
            wildcard = true
            rest = rest.dropFirst(2)
        }
        var hostPart = rest
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("an IPv6 literal without its closing ]") }
            hostPart = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("text after the IPv6 literal") }
                portPart = after.dropFirst()
            }
            guard Self.isIPv6(hostPart.dropFirst().dropLast()) else { throw fail("not an IPv6 address") }
        } else if rest.filter({ $0 == ":" }).count >= 2 {
            // A bare IPv6 address (no port can follow it without brackets).
            guard !wildcard, Self.isIPv6(rest) else {
                throw fail("not an IPv6 address (write [address]:port for one with a port)")
            }
            hostPart = "[" + rest + "]"
        } else if let colon = rest.lastIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        if let portPart {
            guard allowPort else { throw fail("a port is not allowed here") }
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portPart), (1...65535).contains(value)
            else { throw fail("the port must be 1 to 65535") }
            port = value
        } else {
            port = nil
        }
        guard let canonical = HostName.canonical(String(hostPart)) else { throw fail("no host") }
        if hostPart.hasPrefix("[") {
            guard !wildcard else { throw fail("a wildcard cannot apply to an IP address") }
        } else {
            let labels = canonical.split(separator: ".", omittingEmptySubsequences: false)
            guard canonical.utf8.count <= 253, labels.allSatisfy({ label in
                !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.utf8.allSatisfy { WebURL.ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
            }) else { throw fail("not a host name (letters, digits, '-' and '_' in dot-separated labels)") }
            if wildcard, labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
                throw fail("a wildcard cannot apply to an IP address")
            }
        }
        host = canonical
        isWildcard = wildcard
    }

    /// Whether `text` is an IPv6 address (`inet_pton`).
    static func isIPv6(_ text: Substring) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET6, String(text), &buffer) == 1
    }

    /// Whether a host (any spelling) on `port` matches.
    public func matches(host other: String, port otherPort: Int) -> Bool {
        guard let name = HostName.canonical(other) else { return false }
        return matches(canonical: name, port: otherPort)
    }

    /// Whether `url`'s host and effective port match.
    public func matches(_ url: WebURL) -> Bool {
        matches(host: url.host, port: url.effectivePort)
    }

    /// ``matches(host:port:)`` for a host already in ``HostName`` form.
    public func matches(canonical name: String, port otherPort: Int?) -> Bool {
        if let port, let otherPort, port != otherPort { return false }
        if port != nil, otherPort == nil { return false }
        if isWildcard {
            return name.utf8.count > host.utf8.count + 1 && name.hasSuffix("." + host)
        }
        return name == host
    }

    /// How specific the pattern is: an exact host beats any wildcard, a longer wildcard a
    /// shorter one, and with a port beats without. The trust table picks the most specific match.
    public var specificity: Int {
        (isWildcard ? 0 : 1 << 20) + host.utf8.count * 2 + (port == nil ? 0 : 1)
    }

    public var description: String {
        let name = host.contains(":") ? "[" + host + "]" : host
        return (isWildcard ? "*." : "") + name + (port.map { ":\($0)" } ?? "")
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}

extension HostPattern {
    /// The exact pattern for one host (any spelling) and port: an origin's.
    /// Returns nil when the host has no canonical form.
    public init?(host: String, port: Int?) {
        guard let name = HostName.canonical(host) else { return nil }
        self.host = name
        self.isWildcard = false
        self.port = port
    }
}
