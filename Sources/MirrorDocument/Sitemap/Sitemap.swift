import CLibXML2
import CMirrorShims
import Foundation
import MirrorCore

/// A parsed sitemap (sitemaps.org protocol 0.9): a `urlset` of page URLs, or a `sitemapindex`
/// of further sitemaps, each entry with its `lastmod`.
///
/// Parsed with libxml2's streaming XML reader (`xmlReaderForMemory`) with `XML_PARSE_NONET`,
/// no DTD loading and no entity substitution; a document with a DOCTYPE is refused, so no
/// entity can expand. At most ``maximumEntries`` entries are kept (the protocol's limit per
/// file); the rest are counted in ``skippedEntries``.
public struct Sitemap: Sendable, Equatable {
    /// What the file lists.
    public enum Kind: Sendable, Equatable {
        /// `<urlset>`: page URLs.
        case urlSet
        /// `<sitemapindex>`: further sitemaps.
        case index
    }

    /// One `<url>` or `<sitemap>` entry.
    public struct Entry: Sendable, Equatable {
        /// The `<loc>` text, trimmed, entity-decoded by the parser.
        public var location: String
        /// The `<lastmod>` (W3C datetime: a date, or a date and time with a zone), when given and valid.
        public var lastModified: Date?
    }

    public var kind: Kind
    public var entries: [Entry]
    /// Entries past ``maximumEntries``, left out.
    public var skippedEntries: Int

    /// The protocol's limits per sitemap file: 50,000 URLs and 50 MiB uncompressed.
    public static let maximumEntries = 50_000
    public static let maximumBytes = 50 * 1024 * 1024

    /// Parses a sitemap; gzip-compressed bytes are decompressed first (within ``maximumBytes``).
    ///
    /// - Parameters:
    ///   - bytes: the body as received.
    ///   - maximumEntries: entries kept at most.
    /// - Throws: ``SitemapError``.
    public static func parse(_ bytes: [UInt8], maximumEntries: Int = Sitemap.maximumEntries) throws(SitemapError) -> Sitemap {
        let xml = Gzip.isGzip(bytes) ? try Gzip.decompress(bytes, limit: maximumBytes) : bytes
        guard xml.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
        guard !xml.isEmpty else { throw .malformed(reason: "the file is empty") }
        var reader = SitemapReader(maximumEntries: maximumEntries)
        return try reader.read(xml)
    }
}

/// The xmlTextReader loop behind ``Sitemap/parse(_:maximumEntries:)``.
struct SitemapReader {
    let maximumEntries: Int
    private var kind: Sitemap.Kind?
    private var entries: [Sitemap.Entry] = []
    private var skipped = 0
    /// Element names from the root down to the current node (local names).
    private var path: [String] = []
    private var location: String?
    private var lastModified: String?
    private var text = ""

    init(maximumEntries: Int) { self.maximumEntries = maximumEntries }

    mutating func read(_ xml: [UInt8]) throws(SitemapError) -> Sitemap {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let made: xmlTextReaderPtr? = xml.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                CMirrorShims_xmlReaderForMemory($0, Int32(buffer.count), nil, nil, options)
            }
        }
        guard let reader = made else {
            throw .malformed(reason: LibXML2.unavailableReason ?? "libxml2 could not start its reader")
        }
        defer { CMirrorShims_xmlFreeTextReader(reader) }
        while true {
            let status = CMirrorShims_xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1 else { throw .malformed(reason: "not well-formed XML" + Self.position(reader)) }
            try visit(reader)
        }
        guard let kind else { throw .malformed(reason: "no root element") }
        return Sitemap(kind: kind, entries: entries, skippedEntries: skipped)
    }

    private mutating func visit(_ reader: xmlTextReaderPtr) throws(SitemapError) {
        let type = CMirrorShims_xmlTextReaderNodeType(reader)
        switch type {
        case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue), Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
            throw .doctypeRefused
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            let name = Self.localName(reader)
            if path.isEmpty {
                switch name {
                case "urlset": kind = .urlSet
                case "sitemapindex": kind = .index
                default: throw .malformed(reason: "the root element is <\(name)>, not <urlset> or <sitemapindex>")
                }
            }
            let empty = CMirrorShims_xmlTextReaderIsEmptyElement(reader) == 1
            path.append(name)
            text = ""
            if empty { end() }
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
            if path.count == 3, let value = CMirrorShims_xmlTextReaderConstValue(reader) {
                text += String(cString: value)
            }
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            end()
        default:
            break
        }
    }

    /// An element ends: a `loc`/`lastmod` value, or a whole entry.
    private mutating func end() {
        guard let name = path.popLast() else { return }
        if path.count == 2 {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if name == "loc" { location = value }
            if name == "lastmod" { lastModified = value }
        } else if path.count == 1, name == "url" || name == "sitemap" {
            if let location, !location.isEmpty {
                if entries.count < maximumEntries {
                    entries.append(.init(location: location, lastModified: lastModified.flatMap(W3CDate.parse)))
                } else {
                    skipped += 1
                }
            }
            location = nil
            lastModified = nil
        }
    }

    private static func localName(_ reader: xmlTextReaderPtr) -> String {
        CMirrorShims_xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }

    private static func position(_ reader: xmlTextReaderPtr) -> String {
        let line = CMirrorShims_xmlTextReaderGetParserLineNumber(reader)
        return line > 0 ? " (line \(line))" : ""
    }
}

/// W3C datetime (the sitemap protocol's `lastmod`): `YYYY-MM-DD`, or with `Thh:mm[:ss[.s]]` and
/// a zone (`Z` or `±hh:mm`).
enum W3CDate {
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var components = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                        year: year, month: month, day: day)
        var offset = 0
        if bytes.count > 10 {
            guard bytes[10] == 0x54, let hour = number(11..<13), bytes.count > 13, bytes[13] == 0x3A, let minute = number(14..<16)
            else { return nil }
            components.hour = hour
            components.minute = minute
            var index = 16
            if index < bytes.count, bytes[index] == 0x3A, let second = number(17..<19) {
                components.second = second
                index = 19
                if index < bytes.count, bytes[index] == 0x2E {
                    index += 1
                    while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                }
            }
            guard index < bytes.count else { return nil }
            if bytes[index] == 0x5A {
                guard index + 1 == bytes.count else { return nil }
            } else if bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count, bytes[index + 3] == 0x3A,
                      let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6)) {
                offset = (hours * 60 + minutes) * 60 * (bytes[index] == 0x2B ? 1 : -1)
            } else {
                return nil
            }
        }
        return components.date.map { $0.addingTimeInterval(TimeInterval(-offset)) }
    }
}
