import Foundation

// The manifest file format, version 1 (UTF-8 text, one record a line, `\n` line ends):
//
//     mtls-mirror-manifest<TAB>1
//     <url><TAB><localPath><TAB><status><TAB><contentType><TAB><length><TAB><sha256><TAB>
//         <etag><TAB><lastModified><TAB><fetchedAt><TAB><error>[<TAB><reference>]*
//     …
//     #end<TAB><number of entries>
//
// - Text fields escape `\` `TAB` `LF` `CR` as `\\` `\t` `\n` `\r`. An optional text field is
//   empty when absent and starts with `=` when present (so `=` alone is the empty string).
// - `status` and `length` are decimal, empty when absent. `fetchedAt` is the Double number of
//   seconds since 2001-01-01 (`Date.timeIntervalSinceReferenceDate`) in Swift's shortest
//   round-trip form, so dates come back bit for bit.
// - Entries are sorted by URL. The `#end` line catches a file cut short at a line boundary.

extension Manifest {
    static let header = "mtls-mirror-manifest\t1"
    static let trailerPrefix = "#end\t"
    static let fixedFieldCount = 10

    /// The manifest in its file format.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 200 + 64)
        out += Array(Manifest.header.utf8)
        out.append(0x0A)
        for entry in sortedEntries {
            Manifest.appendEscaped(entry.url, to: &out)
            Manifest.appendOptional(entry.localPath, to: &out)
            out.append(0x09)
            if let status = entry.status { out += Array(String(status).utf8) }
            Manifest.appendOptional(entry.contentType, to: &out)
            out.append(0x09)
            if let length = entry.length { out += Array(String(length).utf8) }
            Manifest.appendOptional(entry.sha256, to: &out)
            Manifest.appendOptional(entry.etag, to: &out)
            Manifest.appendOptional(entry.lastModified, to: &out)
            out.append(0x09)
            if let date = entry.fetchedAt { out += Array(String(date.timeIntervalSinceReferenceDate).utf8) }
            Manifest.appendOptional(entry.error, to: &out)
            for reference in entry.references {
                out.append(0x09)
                Manifest.appendEscaped(reference, to: &out)
            }
            out.append(0x0A)
        }
        out += Array((Manifest.trailerPrefix + String(count)).utf8)
        out.append(0x0A)
        return out
    }

    /// Parses the file format.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - path: the file's name, for error messages.
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)`` with the 1-based line.
    public static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> Manifest {
        var entries: [String: ManifestEntry] = [:]
        var lineNumber = 0
        var start = 0
        var sawTrailer = false
        while start < bytes.count {
            lineNumber += 1
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                throw .manifestCorrupt(path: path, line: lineNumber, reason: "truncated line (no line end)")
            }
            let line = bytes[start..<end]
            start = end + 1
            if sawTrailer {
                throw .manifestCorrupt(path: path, line: lineNumber, reason: "data after the end marker")
            }
            if lineNumber == 1 {
                guard line.elementsEqual(header.utf8) else {
                    throw .manifestCorrupt(path: path, line: 1, reason: "not a version 1 manifest header")
                }
                continue
            }
            if line.starts(with: trailerPrefix.utf8) {
                let text = String(decoding: line.dropFirst(trailerPrefix.utf8.count), as: UTF8.self)
                guard Int(text) == entries.count else {
                    throw .manifestCorrupt(path: path, line: lineNumber,
                                           reason: "end marker counts \(text) entries, found \(entries.count)")
                }
                sawTrailer = true
                continue
            }
            let entry = try decodeEntry(line, path: path, line: lineNumber)
            guard entries.updateValue(entry, forKey: entry.url) == nil else {
                throw .manifestCorrupt(path: path, line: lineNumber, reason: "duplicate entry for \(entry.url)")
            }
        }
        guard lineNumber > 0 else { throw .manifestCorrupt(path: path, line: 1, reason: "empty file") }
        guard sawTrailer else {
            throw .manifestCorrupt(path: path, line: lineNumber + 1, reason: "missing end marker (file cut short)")
        }
        var manifest = Manifest()
        manifest.replaceStorage(entries)
        return manifest
    }

    static func decodeEntry(_ line: ArraySlice<UInt8>, path: String, line lineNumber: Int) throws(StoreError) -> ManifestEntry {
        let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
        func corrupt(_ reason: String) -> StoreError { .manifestCorrupt(path: path, line: lineNumber, reason: reason) }
        guard fields.count >= fixedFieldCount else {
            throw corrupt("\(fields.count) fields, expected at least \(fixedFieldCount)")
        }
        func text(_ index: Int) throws(StoreError) -> String {
            guard let value = unescape(fields[index]) else { throw corrupt("bad escape in field \(index + 1)") }
            return value
        }
        func optionalText(_ index: Int) throws(StoreError) -> String? {
            let field = fields[index]
            guard let first = field.first else { return nil }
            guard first == UInt8(ascii: "="), let value = unescape(field.dropFirst()) else {
                throw corrupt("bad text in field \(index + 1)")
            }
            return value
        }
        func number<N: FixedWidthInteger>(_ index: Int, as type: N.Type) throws(StoreError) -> N? {
            let field = fields[index]
            guard !field.isEmpty else { return nil }
            guard let value = N(String(decoding: field, as: UTF8.self)) else {
                throw corrupt("bad number in field \(index + 1)")
            }
            return value
        }
        let url = try text(0)
        guard !url.isEmpty else { throw corrupt("empty URL") }
        var fetchedAt: Date?
        if !fields[8].isEmpty {
            guard let seconds = Double(String(decoding: fields[8], as: UTF8.self)), seconds.isFinite else {
                throw corrupt("bad date in field 9")
            }
            fetchedAt = Date(timeIntervalSinceReferenceDate: seconds)
        }
        var references: [String] = []
        references.reserveCapacity(fields.count - fixedFieldCount)
        for index in fixedFieldCount..<fields.count {
            references.append(try text(index))
        }
        return ManifestEntry(
            key: url, localPath: try optionalText(1), status: try number(2, as: Int.self),
            contentType: try optionalText(3), length: try number(4, as: Int64.self),
            sha256: try optionalText(5), etag: try optionalText(6), lastModified: try optionalText(7),
            fetchedAt: fetchedAt, error: try optionalText(9), references: references)
    }

    static func appendOptional(_ value: String?, to out: inout [UInt8]) {
        out.append(0x09)
        guard let value else { return }
        out.append(UInt8(ascii: "="))
        appendEscaped(value, to: &out)
    }

    static func appendEscaped(_ value: String, to out: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            default: out.append(byte)
            }
        }
    }

    /// Undoes ``appendEscaped(_:to:)``; `nil` for an invalid escape or invalid UTF-8.
    static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        guard field.contains(0x5C) else { return String(validating: field, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            index += 1
            guard byte == 0x5C else { out.append(byte); continue }
            guard index < field.endIndex else { return nil }
            switch field[index] {
            case 0x5C: out.append(0x5C)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            default: return nil
            }
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }
}
