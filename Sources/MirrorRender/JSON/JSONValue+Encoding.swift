extension JSONValue {
    /// The value as compact JSON text in UTF-8 (RFC 8259), appended to `output`.
    ///
    /// Strings escape `"`, `\` and the control characters; everything else, non-ASCII
    /// included, is written as UTF-8. Whole numbers print without a fraction; numbers that are
    /// not finite (which JSON cannot express) print as `null`.
    public func encode(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value):
            if !value.isFinite {
                output.append(contentsOf: "null".utf8)
            } else if value.rounded() == value, abs(value) < 9.0e15 {
                output.append(contentsOf: String(Int64(value)).utf8)
            } else {
                output.append(contentsOf: "\(value)".utf8)
            }
        case .string(let text): Self.encodeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.encode(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // Sorted, so that the same value always gives the same bytes.
            for (position, key) in members.keys.sorted().enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.encodeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                members[key]!.encode(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The value as compact JSON text.
    public var encoded: [UInt8] {
        var output: [UInt8] = []
        encode(into: &output)
        return output
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func encodeString(_ text: String, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + text.utf8.count + 2)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
