/// An ordered list of header fields, looked up case-insensitively.
///
/// Names keep the spelling the client sent; ``first(_:)`` and ``values(_:)`` compare them
/// ASCII case-insensitively, as RFC 9110 §5.1 requires.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields in the order they arrived.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates a header list.
    /// - Parameter fields: name/value pairs, in order.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Appends a field.
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the field value, without surrounding whitespace.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// The value of the first field called `name`, if any.
    /// - Parameter name: the field name, any case.
    public func first(_ name: String) -> String? {
        fields.first { $0.name.asciiCaseInsensitiveEquals(name) }?.value
    }

    /// Every value of the fields called `name`, in order.
    /// - Parameter name: the field name, any case.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.asciiCaseInsensitiveEquals(name) }.map(\.value)
    }

    /// The comma-separated elements of every field called `name`, trimmed, empty ones dropped
    /// (the list syntax of RFC 9110 §5.6.1).
    /// - Parameter name: the field name, any case.
    public func listElements(_ name: String) -> [Substring] {
        values(name).flatMap { value in
            value.split(separator: ",").map { $0.trimmingOWS() }.filter { !$0.isEmpty }
        }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension StringProtocol {
    /// Whether two strings are equal ignoring ASCII case.
    func asciiCaseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        var left = lhs.startIndex, right = rhs.startIndex
        while left != lhs.endIndex {
            guard lhs[left].asciiLowercased == rhs[right].asciiLowercased else { return false }
            lhs.formIndex(after: &left)
            rhs.formIndex(after: &right)
        }
        return true
    }

    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingOWS() -> SubSequence {
        var start = startIndex, end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[start..<end]
    }
}

extension UInt8 {
    /// The byte with ASCII `A`–`Z` mapped to `a`–`z`.
    var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self | 0x20 : self }
}
