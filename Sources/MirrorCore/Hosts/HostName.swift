import Foundation

/// The one canonical spelling of a host that every host comparison of mtls-mirror uses:
/// lower case, no trailing dot, IPv6 literals without their brackets, and each non-ASCII label
/// in its IDNA A-label form (NFC, then Punycode: `bücher.example` → `xn--bcher-kva.example`), so
/// that a pattern written either way matches a URL written either way.
public enum HostName {
    /// The canonical form of `host`, or nil when it is empty or cannot be encoded.
    public static func canonical(_ host: String) -> String? {
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        while name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty else { return nil }
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.lowercased() }
        let labels = name.precomposedStringWithCanonicalMapping.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        var out: [String] = []
        for label in labels {
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                out.append(String(label))
            } else {
                guard let encoded = Punycode.encode(String(label)) else { return nil }
                out.append("xn--" + encoded)
            }
        }
        return out.joined(separator: ".")
    }

    /// Whether `name` (canonical) is an IPv6 literal.
    static func isIPv6(_ name: String) -> Bool { name.contains(":") }
}
