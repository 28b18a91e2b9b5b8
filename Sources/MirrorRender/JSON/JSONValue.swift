/// A JSON value (RFC 8259), the currency of the DevTools protocol.
///
/// A plain `Sendable` enum rather than Foundation's `Any` trees, so that decoded messages can
/// cross from the pipe's thread to the page machines and be matched with `switch`. Objects are
/// dictionaries: the protocol never depends on key order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, or nil (for a missing key and for any other value).
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The text of a string value.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A number that is a whole number within `Int`'s range.
    public var int: Int? {
        if case .number(let value) = self, value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
        return nil
    }

    /// The value of a number.
    public var double: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The value of a boolean.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements of an array.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object.
    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
