import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Reading the manifest format (see Manifest+Format.swift). The decoder works on raw buffers
// and finds line and field ends with `memchr`, so 100,000 entries load in a fraction of a
// second.

extension Manifest {
    /// Parses the file format.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - path: the file's name, for error messages.
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)`` with the 1-based line.
    public static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> Manifest {
        let result = bytes.withUnsafeBufferPointer { buffer in
            var decoder = ManifestDecoder(buffer: buffer, path: path)
            return decoder.run()
        }
        return try result.get()
    }
}

/// One pass over a manifest file's bytes.
///
/// ``decodeAll()`` reads a whole file in memory. ``ManifestIndex`` reads a file a chunk at a
/// time through the same line steps (``nextLine(_:)``, ``truncatedLine()``, ``finish()``), so
/// the two accept the same files and report the same errors on the same lines; and
/// ``decodeEntry(line:path:lineNumber:fixedFields:)`` decodes one line on its own.
struct ManifestDecoder {
    /// The bytes being read: the whole file, or the chunk of it that ``ManifestIndex`` holds;
    /// the ranges given to the methods are indices into it.
    var buffer: UnsafeBufferPointer<UInt8>
    let path: String
    var lineNumber = 0
    var fields: [Range<Int>] = []
    /// Reference texts read so far, so that a URL listed by thousands of documents (a shared
    /// stylesheet) is one string in memory; nil when entries are decoded one at a time and
    /// not kept together.
    var referenceTexts: Set<String>?
    /// Fields before the references: 11 in version 2, 10 in version 1 (no `state`).
    var fixedFields = Manifest.fixedFieldCount
    /// Entry lines read so far.
    var entryCount = 0
    /// Whether the `#end` line has been read.
    var sawTrailer = false

    init(buffer: UnsafeBufferPointer<UInt8>, path: String, internsReferences: Bool = true) {
        self.buffer = buffer
        self.path = path
        referenceTexts = internsReferences ? [] : nil
        fields.reserveCapacity(16)
    }

    mutating func run() -> Result<Manifest, StoreError> {
        do throws(StoreError) {
            return .success(try decodeAll())
        } catch {
            return .failure(error)
        }
    }

    func corrupt(_ reason: String) -> StoreError {
        .manifestCorrupt(path: path, line: max(lineNumber, 1), reason: reason)
    }

    /// The index of the next `byte` in `start..<end`, or `end`.
    func find(_ byte: UInt8, from start: Int, to end: Int) -> Int {
        guard start < end, let base = buffer.baseAddress,
              let hit = memchr(base + start, Int32(byte), end - start)
        else { return end }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    func equals(_ range: Range<Int>, _ text: String) -> Bool {
        text.utf8.elementsEqual(UnsafeBufferPointer(rebasing: buffer[range]))
    }

    mutating func decodeAll() throws(StoreError) -> Manifest {
        var entries: [String: ManifestEntry] = [:]
        var start = 0
        let count = buffer.count
        while start < count {
            let end = find(0x0A, from: start, to: count)
            guard end < count else { throw truncatedLine() }
            let line = start..<end
            start = end + 1
            guard let entry = try nextLine(line) else { continue }
            guard entries.updateValue(entry, forKey: entry.url) == nil else {
                throw corrupt("duplicate entry for \(entry.url)")
            }
        }
        try finish()
        var manifest = Manifest()
        manifest.replaceStorage(entries)
        return manifest
    }

    /// Reads the file's next line (`line`, in ``buffer``, without its `\n`): the header, the
    /// end marker (checking its count), or an entry. The caller checks that the entry's URL is
    /// new.
    /// - Returns: the entry, or nil for the header and the end marker.
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)``.
    mutating func nextLine(_ line: Range<Int>) throws(StoreError) -> ManifestEntry? {
        try nextLine(line) { (decoder, line) throws(StoreError) in try decoder.decodeEntry(line) }
    }

    /// ``nextLine(_:)`` with an entry line read by `decode` (``decodeEntry(_:)`` or
    /// ``indexFields(_:)``).
    mutating func nextLine<Entry>(
        _ line: Range<Int>, decode: (inout ManifestDecoder, Range<Int>) throws(StoreError) -> Entry
    ) throws(StoreError) -> Entry? {
        lineNumber += 1
        if sawTrailer { throw corrupt("data after the end marker") }
        if lineNumber == 1 {
            if equals(line, Manifest.headerVersion1) {
                fixedFields = Manifest.fixedFieldCountVersion1
            } else if !equals(line, Manifest.header) {
                throw corrupt("not a version 1 or 2 manifest header")
            }
            return nil
        }
        let prefixLength = Manifest.trailerPrefix.utf8.count
        if line.count >= prefixLength, equals(line.lowerBound..<(line.lowerBound + prefixLength), Manifest.trailerPrefix) {
            let counted = integer(line.lowerBound + prefixLength..<line.upperBound)
            guard counted == Int64(entryCount) else {
                throw corrupt("end marker counts \(counted.map(String.init) ?? "?") entries, found \(entryCount)")
            }
            sawTrailer = true
            return nil
        }
        let entry = try decode(&self, line)
        entryCount += 1
        return entry
    }

    /// The error for bytes after the last `\n`: a line cut short.
    mutating func truncatedLine() -> StoreError {
        lineNumber += 1
        return corrupt("truncated line (no line end)")
    }

    /// Checks, once every line is read, that the file was not empty or cut short.
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)``.
    mutating func finish() throws(StoreError) {
        guard lineNumber > 0 else { throw corrupt("empty file") }
        guard sawTrailer else {
            lineNumber += 1
            throw corrupt("missing end marker (file cut short)")
        }
    }

    /// Decodes one entry line on its own, without its `\n`: a row of ``ManifestRecords``, or a
    /// line ``ManifestIndex`` found again.
    /// - Parameters:
    ///   - line: the line's bytes.
    ///   - path: the file's name, for errors.
    ///   - lineNumber: the line's number in that file, for errors.
    ///   - fixedFields: ``Manifest/fixedFieldCount``, or ``Manifest/fixedFieldCountVersion1``
    ///     for a version 1 file.
    /// - Throws: ``StoreError/manifestCorrupt(path:line:reason:)``.
    static func decodeEntry(
        line: UnsafeBufferPointer<UInt8>, path: String, lineNumber: Int, fixedFields: Int = Manifest.fixedFieldCount
    ) throws(StoreError) -> ManifestEntry {
        var decoder = ManifestDecoder(buffer: line, path: path, internsReferences: false)
        decoder.lineNumber = lineNumber
        decoder.fixedFields = fixedFields
        return try decoder.decodeEntry(0..<line.count)
    }

    mutating func decodeEntry(_ line: Range<Int>) throws(StoreError) -> ManifestEntry {
        try splitFields(line)
        let url = try text(0)
        guard !url.isEmpty else { throw corrupt("empty URL") }
        let fetchedAt = try date(8)
        var references: [String] = []
        references.reserveCapacity(fields.count - fixedFields)
        for index in fixedFields..<fields.count {
            let reference = try text(index)
            references.append(referenceTexts?.insert(reference).memberAfterInsert ?? reference)
        }
        // Before the other fields: indexFields(_:) checks them in this same order.
        let stale = try stale()
        return ManifestEntry(
            key: url, localPath: try optionalText(1), status: try number(2).map { Int($0) },
            contentType: try optionalText(3), length: try number(4),
            sha256: try optionalText(5), etag: try optionalText(6), lastModified: try optionalText(7),
            fetchedAt: fetchedAt, error: try optionalText(9), references: references, stale: stale)
    }

    /// What ``ManifestIndex`` keeps of an entry line.
    struct IndexFields {
        var url: String
        var localPath: String?
        var status: Int64?
        var isStale: Bool
        /// The first reference: a redirect's target.
        var firstReference: String?
    }

    /// Checks an entry line exactly as ``decodeEntry(_:)`` does (the same errors for the same
    /// lines) but makes strings only of what the index keeps: opening a snapshot's manifest
    /// then costs a pass over its bytes, not a decoded entry per line.
    mutating func indexFields(_ line: Range<Int>) throws(StoreError) -> IndexFields {
        try splitFields(line)
        let url = try text(0)
        guard !url.isEmpty else { throw corrupt("empty URL") }
        _ = try date(8)
        var firstReference: String?
        for index in fixedFields..<fields.count {
            if index == fixedFields {
                firstReference = try text(index)
            } else {
                try check(index)
            }
        }
        // In decodeEntry(_:)'s order, so that a line with two faults gets the same error.
        let isStale = try stale() != nil
        let localPath = try optionalText(1)
        let status = try number(2)
        try checkOptional(3)
        _ = try number(4)
        for index in [5, 6, 7, 9] { try checkOptional(index) }
        return IndexFields(url: url, localPath: localPath, status: status, isStale: isStale,
                           firstReference: firstReference)
    }

    /// Splits `line` into ``fields`` at its tabs, and checks their number.
    private mutating func splitFields(_ line: Range<Int>) throws(StoreError) {
        fields.removeAll(keepingCapacity: true)
        var fieldStart = line.lowerBound
        while true {
            let tab = find(0x09, from: fieldStart, to: line.upperBound)
            fields.append(fieldStart..<tab)
            if tab == line.upperBound { break }
            fieldStart = tab + 1
        }
        guard fields.count >= fixedFields else {
            throw corrupt("\(fields.count) fields, expected at least \(fixedFields)")
        }
    }

    /// The date of field `index` (seconds since 2001 as text), nil when empty.
    private func date(_ index: Int) throws(StoreError) -> Date? {
        guard !fields[index].isEmpty else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[fields[index]]), as: UTF8.self)
        guard let seconds = Double(text), seconds.isFinite else { throw corrupt("bad date in field \(index + 1)") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The `state` field of a version 2 line: nil when the entry is not stale.
    private func stale() throws(StoreError) -> ManifestEntry.Stale? {
        guard fixedFields > Manifest.fixedFieldCountVersion1, let state = try optionalText(10) else { return nil }
        guard let parsed = Manifest.stale(fromState: state) else { throw corrupt("unknown state in field 11") }
        return parsed
    }

    /// ``optionalText(_:)``'s checks, without its string.
    private func checkOptional(_ index: Int) throws(StoreError) {
        guard !fields[index].isEmpty else { return }
        guard buffer[fields[index].lowerBound] == UInt8(ascii: "=") else { throw corrupt("bad text in field \(index + 1)") }
        try check(index, from: 1)
    }

    /// Checks that field `index`, from its byte `offset` on, is escaped text that
    /// ``unescape(_:)`` accepts, without making a string of it when it is plain ASCII.
    private func check(_ index: Int, from offset: Int = 0) throws(StoreError) {
        let range = fields[index].lowerBound + offset..<fields[index].upperBound
        let field = UnsafeBufferPointer(rebasing: buffer[range])
        var union: UInt8 = 0
        for byte in field { union |= byte }
        if union < 0x80, find(0x5C, from: range.lowerBound, to: range.upperBound) == range.upperBound { return }
        guard unescape(range) != nil else { throw corrupt("bad text in field \(index + 1)") }
    }

    func text(_ index: Int) throws(StoreError) -> String {
        guard let value = unescape(fields[index]) else { throw corrupt("bad text in field \(index + 1)") }
        return value
    }

    func optionalText(_ index: Int) throws(StoreError) -> String? {
        let field = fields[index]
        guard !field.isEmpty else { return nil }
        guard buffer[field.lowerBound] == UInt8(ascii: "="),
              let value = unescape(field.lowerBound + 1..<field.upperBound)
        else { throw corrupt("bad text in field \(index + 1)") }
        return value
    }

    func number(_ index: Int) throws(StoreError) -> Int64? {
        let field = fields[index]
        guard !field.isEmpty else { return nil }
        guard let value = integer(field) else { throw corrupt("bad number in field \(index + 1)") }
        return value
    }

    /// A decimal integer (optional leading `-`), or nil.
    func integer(_ range: Range<Int>) -> Int64? {
        var index = range.lowerBound
        let negative = index < range.upperBound && buffer[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < range.upperBound, range.upperBound - index <= 18 else { return nil }
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = buffer[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// Undoes `Manifest.appendEscaped`; nil for an invalid escape or invalid UTF-8.
    func unescape(_ range: Range<Int>) -> String? {
        let field = UnsafeBufferPointer(rebasing: buffer[range])
        if find(0x5C, from: range.lowerBound, to: range.upperBound) == range.upperBound {
            return Self.string(validating: field)
        }
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var index = 0
        while index < field.count {
            let byte = field[index]
            index += 1
            guard byte == 0x5C else { out.append(byte); continue }
            guard index < field.count else { return nil }
            switch field[index] {
            case 0x5C: out.append(0x5C)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            default: return nil
            }
            index += 1
        }
        return out.withUnsafeBufferPointer { Self.string(validating: $0) }
    }

    /// The UTF-8 text of `bytes`, or nil when they are not valid UTF-8. Manifest fields are
    /// nearly always ASCII, checked with one pass the compiler vectorises; the standard
    /// library's `String(validating:as:)` is generic and costs several hundred instructions
    /// a call on top (a tenth of an unchanged refresh's CPU went there, 44 fields an entry).
    static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        let text = String(decoding: bytes, as: UTF8.self)
        if union < 0x80 { return text }
        // Decoding replaces what is not UTF-8, so valid text is exactly what round-trips.
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
