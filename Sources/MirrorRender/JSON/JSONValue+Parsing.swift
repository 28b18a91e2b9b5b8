/// Why bytes are not one JSON value.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset where parsing stopped.
    public var offset: Int
    /// What was expected there.
    public var reason: String

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting accepted: a hostile or broken peer cannot exhaust the stack.
    public static let maximumDepth = 256

    /// Parses exactly one JSON value (surrounding whitespace allowed).
    ///
    /// Strings are decoded as UTF-8 (invalid sequences become U+FFFD) with every escape of
    /// RFC 8259 §7, surrogate pairs included; a string without escapes is copied once.
    /// - Throws: ``JSONParseError`` with the offset of the first byte that does not fit.
    public static func parse<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue
    where Bytes.Index == Int {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.endIndex else { throw parser.error("nothing after the value") }
        return value
    }
}

/// A recursive-descent parser over bytes (RFC 8259).
private struct JSONParser<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
    let bytes: Bytes
    var index: Int

    init(bytes: Bytes) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index - bytes.startIndex, reason: reason)
    }

    mutating func skipSpace() {
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("nested more than \(JSONValue.maximumDepth) levels") }
        guard index < bytes.endIndex else { throw error("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard bytes.endIndex - index >= count else { throw error("\(word)") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { throw error("\(word)") }
        index += count
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { throw error("a member name") }
            let key = try string()
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { throw error("':'") }
            index += 1
            skipSpace()
            members[key] = try value(depth: depth + 1)
            skipSpace()
            guard index < bytes.endIndex else { throw error("',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.endIndex else { throw error("',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("',' or ']'")
        }
    }

    mutating func number() throws(JSONParseError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.endIndex, isDigit(bytes[index]) else { throw error("a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.endIndex, isDigit(bytes[index]) else { throw error("a digit after '.'") }
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.endIndex, isDigit(bytes[index]) else { throw error("a digit in the exponent") }
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("a number") }
        return value
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func string() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // The common case: no escape, one copy.
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character inside a string") }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 { throw error("a control character inside a string") }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.endIndex else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code), bytes.endIndex - index >= 6,
                   bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let mark = index
                    index += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = mark
                    }
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                scalars.append(contentsOf: String(Character(scalar)).utf8)
            default:
                throw error("a valid escape")
            }
        }
        throw error("the end of the string")
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.endIndex - index >= 4 else { throw error("four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("a hex digit")
            }
            code = code << 4 | digit
            index += 1
        }
        return code
    }
}
