import Foundation

/// One line of a CDXJ index: `SURT TIMESTAMP {json}`, as cdxj-indexer writes it.
///
/// The JSON object holds strings only, in cdxj-indexer's order: `url`, `mime`, `status`,
/// `digest`, `length` (of the gzip member), `offset` (of the member in the file) and `filename`;
/// a field without a value is left out. Lines sort by byte (the SURT key, then the timestamp),
/// which is what a sorted index means to pywb.
public struct CDXJEntry: Sendable, Equatable, Comparable {
    /// The SURT key of ``url``.
    public var key: String
    /// The capture's 14-digit timestamp.
    public var timestamp: String
    public var url: String
    /// The media type without parameters; `warc/revisit` for a revisit record.
    public var mime: String?
    /// The HTTP status, as text.
    public var status: String?
    /// `WARC-Payload-Digest`.
    public var digest: String?
    /// The gzip member's length and offset.
    public var length: Int64
    public var offset: Int64
    /// The WARC file's name.
    public var filename: String

    public init(key: String, timestamp: String, url: String, mime: String?, status: String?, digest: String?,
                length: Int64, offset: Int64, filename: String) {
        self.key = key
        self.timestamp = timestamp
        self.url = url
        self.mime = mime
        self.status = status
        self.digest = digest
        self.length = length
        self.offset = offset
        self.filename = filename
    }

    /// The index line, without the newline.
    public var line: String {
        var text = key + " " + timestamp + " {\"url\": " + JSONText.quoted(url)
        if let mime { text += ", \"mime\": " + JSONText.quoted(mime) }
        if let status { text += ", \"status\": " + JSONText.quoted(status) }
        if let digest { text += ", \"digest\": " + JSONText.quoted(digest) }
        text += ", \"length\": \"\(length)\", \"offset\": \"\(offset)\", \"filename\": " + JSONText.quoted(filename) + "}"
        return text
    }

    /// Parses an index line; nil for anything else (such as a `!meta` line).
    public init?(line: String) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("{"),
              let object = try? JSONSerialization.jsonObject(with: Data(parts[2].utf8)) as? [String: Any],
              let url = object["url"] as? String, let filename = object["filename"] as? String,
              let length = (object["length"] as? String).flatMap({ Int64($0) }),
              let offset = (object["offset"] as? String).flatMap({ Int64($0) })
        else { return nil }
        self.init(key: String(parts[0]), timestamp: String(parts[1]), url: url, mime: object["mime"] as? String,
                  status: object["status"] as? String, digest: object["digest"] as? String,
                  length: length, offset: offset, filename: filename)
    }

    /// The entry of a written `response` or `revisit` record; nil for other records.
    /// - Parameters:
    ///   - fields: the record's WARC fields.
    ///   - head: the HTTP head of its block.
    ///   - type: the record type.
    ///   - offset: where its member starts.
    ///   - length: the member's length.
    ///   - filename: the WARC file's name.
    static func forRecord(type: WARCRecordType, fields: WARCFields, head: [UInt8], offset: Int64, length: Int64,
                          filename: String) -> CDXJEntry? {
        guard type == .response || type == .revisit else { return nil }
        let http = HTTPHeadSummary(head)
        return CDXJEntry(type: type, fields: fields, status: http.status.flatMap { Int($0) } ?? 0, contentType: http.contentType,
                         offset: offset, length: length, filename: filename)
    }

    /// The entry of a `response` or `revisit` record whose HTTP status and `Content-Type` are
    /// known (nil for other records).
    init?(type: WARCRecordType, fields: WARCFields, status: Int, contentType: String?, offset: Int64, length: Int64,
          filename: String) {
        guard type == .response || type == .revisit, let url = fields["WARC-Target-URI"],
              let date = fields["WARC-Date"], let timestamp = WARCDate.timestamp(ofWARCDate: date) else { return nil }
        self.init(key: SURT.key(url), timestamp: timestamp, url: url,
                  mime: type == .revisit ? "warc/revisit" : contentType.map(Self.mediaType),
                  status: status > 0 ? String(status) : nil, digest: fields["WARC-Payload-Digest"],
                  length: length, offset: offset, filename: filename)
    }

    /// cdxj-indexer's media type: the value up to the first `;` or white space.
    static func mediaType(_ contentType: String) -> String {
        let text = contentType.trimmingSpaces
        let end = text.firstIndex { $0 == ";" || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } ?? text.endIndex
        return String(text[..<end]).trimmingSpaces
    }

    public static func < (a: CDXJEntry, b: CDXJEntry) -> Bool {
        a.line.utf8.lexicographicallyPrecedes(b.line.utf8)
    }
}

/// The status code and `Content-Type` of an HTTP head, as an indexer reads them.
struct HTTPHeadSummary {
    var status: String?
    var contentType: String?

    init(_ head: [UInt8]) {
        guard !head.isEmpty else { return }
        let lineEnd = head.firstIndex(of: 0x0A) ?? head.count
        let statusLine = String(decoding: head[..<lineEnd], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        if parts.count >= 2, parts[0].hasPrefix("HTTP/") { status = String(parts[1]) }
        contentType = WARCFields.parse(head[min(lineEnd + 1, head.count)...])["Content-Type"]
    }
}

/// JSON strings as Python's `json.dumps` writes them (`ensure_ascii`): `"` and `\` escaped,
/// control characters as `\n`, `\t`… or `\u00XX`, and everything beyond ASCII as `\uXXXX`
/// (UTF-16, surrogate pairs above the BMP).
enum JSONText {
    static func quoted(_ text: String) -> String {
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }) { return "\"" + text + "\"" }
        var output = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x20...0x7E: output.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return output + "\""
    }
}
