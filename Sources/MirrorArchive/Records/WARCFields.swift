/// The named fields of a WARC record header (or of a `warcinfo` block), in order.
///
/// WARC 1.1 §4: each field is `Name: value` ended by CRLF; names are case-insensitive tokens and
/// a name may repeat (`WARC-Protocol`). A value must not contain CR or LF (this type replaces
/// any control character with a space, so a hostile URL or header can never start a field of
/// its own).
public struct WARCFields: Sendable, Equatable, Sequence {
    /// One field.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public private(set) var fields: [Field] = []

    /// An empty list.
    public init() {}

    /// Appends `name: value` (control characters in either are replaced with spaces).
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: Self.clean(name), value: Self.clean(value)))
    }

    /// Sets the first field called `name`, or appends it.
    public mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[index].value = Self.clean(value)
        } else {
            append(name, value)
        }
    }

    /// The first value of `name`, compared without case.
    public subscript(_ name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// `Name: value\r\n` for each field.
    public var serialized: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.count * 48)
        serialize(into: &bytes)
        return bytes
    }

    /// Appends ``serialized`` to `bytes`.
    public func serialize(into bytes: inout [UInt8]) {
        for field in fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(0x3A)
            bytes.append(0x20)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(0x0D)
            bytes.append(0x0A)
        }
    }

    /// Appends a field whose name and value are known to be clean (the builder's own: record
    /// ids, dates, digests, constants), without scanning them.
    mutating func appendClean(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (0x61...0x7A).contains(x | 0x20))
        }
    }

    private static func clean(_ text: String) -> String {
        let clean = text.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 < 0x20 || $0 == 0x7F } }
            ?? !text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
        guard !clean else { return text }
        return String(decoding: text.utf8.map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 }, as: UTF8.self)
    }

    /// Parses header lines (`Name: value` ended by CRLF or LF, up to an empty line or the end).
    /// Lines without a colon are skipped; continuation lines (starting with a space or tab) join
    /// the field before them.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> WARCFields {
        var result = WARCFields()
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            var lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.endIndex
            let next = lineEnd == bytes.endIndex ? lineEnd : lineEnd + 1
            if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = bytes[lineStart..<lineEnd]
            if line.isEmpty { break }
            if let first = line.first, first == 0x20 || first == 0x09, !result.fields.isEmpty {
                let extra = String(decoding: line.drop { $0 == 0x20 || $0 == 0x09 }, as: UTF8.self)
                result.fields[result.fields.count - 1].value += " " + extra
            } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: line[..<colon], as: UTF8.self).trimmingSpaces
                let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
                result.fields.append(Field(name: name, value: value))
            }
            lineStart = next
        }
        return result
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var bytes = Substring(self).utf8[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
