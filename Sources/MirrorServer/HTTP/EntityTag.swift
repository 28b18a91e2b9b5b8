/// Entity-tag comparison (RFC 9110 §8.8.3).
public enum EntityTag {
    /// The tags of an `If-None-Match`/`If-Match` value (`*` comes back as `"*"` alone).
    ///
    /// Tags are `"opaque"` or `W/"opaque"`; commas inside quotes do not split. Malformed text
    /// ends the list.
    /// - Parameter value: the header value.
    public static func list(_ value: String) -> [String] {
        let trimmed = value.trimmingOWS()
        if trimmed == "*" { return ["*"] }
        var tags: [String] = []
        var rest = Substring(trimmed)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { break }
            var tag = ""
            if rest.hasPrefix("W/") {
                tag = "W/"
                rest = rest.dropFirst(2)
            }
            guard rest.first == "\"" else { break }
            guard let close = rest.dropFirst().firstIndex(of: "\"") else { break }
            tag += rest[rest.startIndex...close]
            tags.append(tag)
            rest = rest[rest.index(after: close)...]
        }
        return tags
    }

    /// Weak comparison: equal opaque tags, either may be weak.
    /// - Parameters:
    ///   - lhs: a tag.
    ///   - rhs: another tag.
    public static func weakMatch(_ lhs: String, _ rhs: String) -> Bool {
        opaque(lhs) == opaque(rhs)
    }

    /// Strong comparison: equal, and neither weak.
    /// - Parameters:
    ///   - lhs: a tag.
    ///   - rhs: another tag.
    public static func strongMatch(_ lhs: String, _ rhs: String) -> Bool {
        !lhs.hasPrefix("W/") && !rhs.hasPrefix("W/") && lhs == rhs
    }

    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
