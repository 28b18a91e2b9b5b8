/// A `Range` request header reduced to what this server does with it (RFC 9110 §14.2).
public enum ByteRangeRequest: Sendable, Equatable {
    /// Serve the whole representation (no header, an unknown unit, bad syntax, or several
    /// ranges: multipart responses are not produced; RFC 9110 allows ignoring `Range`).
    case whole
    /// Serve these bytes with 206.
    case partial(Range<Int64>)
    /// No requested byte exists: 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// Interprets a `Range` value against a representation of `length` bytes.
    /// - Parameters:
    ///   - value: the header value, such as `bytes=0-99`, `bytes=100-` or `bytes=-20`.
    ///   - length: the full length in bytes.
    public static func parse(_ value: String, length: Int64) -> ByteRangeRequest {
        let trimmed = value.trimmingOWS()
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "bytes=" else { return .whole }
        let specs = trimmed.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
        guard specs.count == 1 else { return .whole }
        let spec = specs[0].trimmingOWS()
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        func number(_ text: Substring) -> Int64? {
            guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int64(text)
        }
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .partial(max(0, length - suffix)..<length)
        }
        guard let start = number(first) else { return .whole }
        var end = length - 1
        if !last.isEmpty {
            guard let parsed = number(last) else { return .whole }
            guard parsed >= start else { return .whole }
            end = min(parsed, length - 1)
        }
        guard start < length else { return .unsatisfiable }
        return .partial(start..<(end + 1))
    }
}
