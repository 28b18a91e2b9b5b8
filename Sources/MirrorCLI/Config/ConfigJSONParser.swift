/// A strict RFC 8259 JSON parser producing ``ConfigJSON``, with line and column in its errors.
///
/// It exists instead of `JSONSerialization` because the config needs member order, exact
/// number text, `true` distinct from `1`, duplicate-key detection and error positions.
/// A UTF-8 byte-order mark at the start is skipped; nesting deeper than 128 levels is refused.
struct ConfigJSONParser {
    /// Why and where the text is not JSON.
    struct Failure: Error, Equatable {
        /// 1-based line of the offending byte.
        let line: Int
        /// 1-based column, counted in characters (Unicode scalars).
        let column: Int
        /// What was wrong, e.g. `expected ',' or '}'`.
        let reason: String
    }

    private let bytes: [UInt8]
    private var offset = 0
    private static let maximumDepth = 128

    /// Parses one JSON document.
    ///
    /// - Parameter bytes: the document's UTF-8 bytes.
    /// - Returns: the value.
    /// - Throws: ``Failure`` at the first syntax error, invalid UTF-8, duplicate key or
    ///   trailing content.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> ConfigJSON {
        var parser = ConfigJSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.offset = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw parser.failure("unexpected content after the top-level value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> ConfigJSON {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
        guard let byte = current else { throw failure("unexpected end of file, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        default: throw failure("expected a value, found \(describe(byte))")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> ConfigJSON {
        offset += 1
        var members: [ConfigJSON.Member] = []
        var seen: Set<String> = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { offset += 1; return .object([]) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw failure(current.map { "expected a key in double quotes, found \(describe($0))" } ?? "unexpected end of file inside an object")
            }
            let keyStart = offset
            let key = try parseString()
            guard seen.insert(key).inserted else {
                offset = keyStart
                throw failure("duplicate key \(ConfigJSON.quoted(key))")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the key \(ConfigJSON.quoted(key))") }
            offset += 1
            skipWhitespace()
            members.append(.init(key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; return .object(members)
            case let byte?: throw failure("expected ',' or '}' in an object, found \(describe(byte))")
            case nil: throw failure("unexpected end of file inside an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> ConfigJSON {
        offset += 1
        var items: [ConfigJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { offset += 1; return .array([]) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; return .array(items)
            case let byte?: throw failure("expected ',' or ']' in an array, found \(describe(byte))")
            case nil: throw failure("unexpected end of file inside an array")
            }
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        func flush(_ parser: ConfigJSONParser, to end: Int) throws(Failure) {
            guard runStart < end else { return }
            guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                throw parser.failure("invalid UTF-8 in a string")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard let byte = current else { throw failure("unexpected end of file inside a string") }
            switch byte {
            case UInt8(ascii: "\""):
                try flush(self, to: offset)
                offset += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush(self, to: offset)
                offset += 1
                scalars.append(try parseEscape())
                runStart = offset
            case 0..<0x20:
                throw failure("control character \(describe(byte)) inside a string (write it as an escape)")
            default:
                offset += 1
            }
        }
    }

    private mutating func parseEscape() throws(Failure) -> Unicode.Scalar {
        guard let byte = current else { throw failure("unexpected end of file inside a string") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw failure("unpaired surrogate \\u\(String(high, radix: 16))")
                }
                offset += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate \\u\(String(high, radix: 16))") }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                if let scalar = Unicode.Scalar(value) { return scalar }
            } else if let scalar = Unicode.Scalar(high) {
                return scalar
            }
            throw failure("unpaired surrogate \\u\(String(high, radix: 16))")
        default:
            offset -= 1
            throw failure("invalid escape \\\(describe(byte))")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw failure("expected 4 hex digits after \\u") }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(Failure) -> String {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        if current == UInt8(ascii: "0") {
            offset += 1
        } else {
            guard try skipDigits() > 0 else { throw failure("expected a digit in a number") }
        }
        if current == UInt8(ascii: ".") {
            offset += 1
            guard try skipDigits() > 0 else { throw failure("expected a digit after the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard try skipDigits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func skipDigits() throws(Failure) -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            offset += 1
            count += 1
        }
        return count
    }

    private mutating func expectWord(_ word: String) throws(Failure) {
        let utf8 = Array(word.utf8)
        guard bytes.count - offset >= utf8.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else {
            throw failure("expected a value (string, number, object, array, true, false or null)")
        }
        offset += utf8.count
    }

    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }

    /// An error at the current offset, with its line and column.
    private func failure(_ reason: String) -> Failure {
        let (line, column) = Self.position(of: min(offset, bytes.count), in: bytes)
        return Failure(line: line, column: column, reason: reason)
    }

    /// 1-based line and column of byte `offset`; columns count Unicode scalars (UTF-8 lead bytes).
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
