/// Host patterns with a value each, looked up by the most specific match
/// (``HostPattern/specificity``): the trust table's host → policy. A pattern given twice keeps
/// the later value.
public struct HostPatternTable<Value: Sendable>: Sendable {
    private var entries: [(pattern: HostPattern, value: Value)] = []

    public init() {}

    /// A table of these entries, later ones replacing earlier equal patterns.
    public init(_ entries: [(HostPattern, Value)]) {
        for (pattern, value) in entries { set(value, for: pattern) }
    }

    /// Sets the value of `pattern`.
    public mutating func set(_ value: Value, for pattern: HostPattern) {
        entries.removeAll { $0.pattern == pattern }
        entries.append((pattern, value))
        entries.sort { $0.pattern.specificity > $1.pattern.specificity }
    }

    /// The value of the most specific pattern that matches, or nil.
    /// - Parameters:
    ///   - host: any spelling of a host.
    ///   - port: its port, or nil when the caller matches by host only (then only patterns
    ///     without a port apply).
    public func value(forHost host: String, port: Int? = nil) -> Value? {
        guard let name = HostName.canonical(host) else { return nil }
        // An index loop: `first(where:)` on this generic table looked up `Sequence` conformances
        // in the runtime's tables on its first call of each run.
        for index in entries.indices where entries[index].pattern.matches(canonical: name, port: port) {
            return entries[index].value
        }
        return nil
    }

    /// Whether any pattern matches.
    public func contains(host: String, port: Int?) -> Bool { value(forHost: host, port: port) != nil }

    /// The patterns, most specific first.
    public var patterns: [HostPattern] { entries.map(\.pattern) }
    public var isEmpty: Bool { entries.isEmpty }
}
