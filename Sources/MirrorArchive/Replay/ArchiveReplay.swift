import Foundation
import MirrorCore
import MirrorDocument
import MirrorHTTP

/// Replays a site from its WARC files at a time the reader picks: `/TIMESTAMP/URL` (under the
/// site's prefix when several sites are served) answers with the capture of URL nearest to
/// TIMESTAMP (4 to 14 digits; `2026` means the start of 2026), as the server sent it then.
///
/// - A revisit is answered with the payload of the capture it refers to.
/// - The payload is decoded (gzip, deflate, br) and served without `Content-Encoding`.
/// - In HTML and CSS every reference is rewritten to `/PREFIX/TIMESTAMP/ABSOLUTE-URL`, with the
///   timestamp the reader asked for, so that following links stays at that time; a redirect's
///   `Location` is rewritten the same way. `<base href>` is removed, since it would send the
///   rewritten links back to the origin.
/// - Only `Content-Type` and `Location` of the recorded headers are passed on (not cookies, not
///   security policies that would block the rewritten page), plus `Memento-Datetime` and a
///   `Link` to the original URL (RFC 7089).
///
/// It reads only the archive (never the origin, never the mirror).
public final class ArchiveReplay: Sendable {
    /// An answer.
    public struct Response: Sendable, Equatable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public static func == (a: Response, b: Response) -> Bool {
            a.status == b.status && a.body == b.body && a.headers.map { "\($0.name):\($0.value)" } == b.headers.map { "\($0.name):\($0.value)" }
        }
    }

    /// The largest payload decoded for replay.
    public static let decodedLimit = 256 << 20

    let site: String
    /// `""` for a site served at `/`, `/NAME` when several are served.
    let prefix: String
    private let index: ReplayIndex

    /// - Parameters:
    ///   - site: the site's name.
    ///   - archiveFolder: its archive folder (`output/SITE/archive`).
    ///   - prefix: its path prefix in the server (`""` or `/NAME`).
    public init(site: String, archiveFolder: String, prefix: String) {
        self.site = site
        self.prefix = prefix
        index = ReplayIndex(folder: archiveFolder)
    }

    /// The answer for a request path below the site's prefix (raw, still percent-encoded, e.g.
    /// `/20261201/https://intranet.example/a?b`), or nil when it is not a replay path.
    /// - Parameters:
    ///   - path: the raw path after the prefix.
    ///   - query: the raw query, which belongs to the archived URL.
    public func respond(path: String, query: String?) -> Response? {
        guard let (timestamp, url) = Self.parse(path: path, query: query) else { return nil }
        guard let wanted = WARCDate.parseTimestamp(timestamp) else { return nil }
        let captures = index.captures(of: url)
        guard let nearest = captures.min(by: { Self.distance($0, wanted) < Self.distance($1, wanted) }) else {
            return page(404, "Not in the archive", "\(url) was not captured.")
        }
        do {
            return try replay(nearest, asked: timestamp)
        } catch {
            return page(502, "Archive unreadable", error.summary)
        }
    }

    /// `TIMESTAMP` and the URL of a replay path; nil for any other path.
    static func parse(path: String, query: String?) -> (String, String)? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        var index = 1
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        let digits = index - 1
        guard (4...14).contains(digits), index < bytes.count, bytes[index] == UInt8(ascii: "/") else { return nil }
        let timestamp = String(decoding: bytes[1..<index], as: UTF8.self)
        var url = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        for scheme in ["https:", "http:"] where url.hasPrefix(scheme) && !url.hasPrefix(scheme + "//") {
            // A client that collapsed "//" in the path.
            url = scheme + "//" + url.dropFirst(scheme.count).drop { $0 == "/" }
        }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { return nil }
        if let query { url += "?" + query }
        return (timestamp, url)
    }

    private static func distance(_ entry: CDXJEntry, _ wanted: Date) -> TimeInterval {
        WARCDate.parseTimestamp(entry.timestamp).map { abs($0.timeIntervalSince(wanted)) } ?? .infinity
    }

    private func replay(_ entry: CDXJEntry, asked timestamp: String) throws(ArchiveError) -> Response {
        let record = try WARCReader(path: index.folder + "/" + entry.filename).record(at: entry.offset)
        var head = RecordedHead(raw: record.httpHead, redacted: [])
        var payload = record.payload
        if record.type == .revisit {
            guard let uri = record.fields["WARC-Refers-To-Target-URI"], let date = record.fields["WARC-Refers-To-Date"],
                  let stamp = WARCDate.timestamp(ofWARCDate: date), let original = index.original(of: uri, timestamp: stamp) else {
                return page(404, "Not in the archive", "The capture of \(entry.url) at \(entry.timestamp) repeats one this archive does not hold.")
            }
            let source = try WARCReader(path: index.folder + "/" + original.filename).record(at: original.offset)
            payload = source.payload
            // A 304 says nothing of the body: the referred capture's head describes it.
            if head.status == 304 || head.status == 0 { head = RecordedHead(raw: source.httpHead, redacted: []) }
        }
        let status = head.status == 0 ? 200 : head.status
        if let encoding = head.contentEncoding {
            do {
                payload = try ContentDecoding.decode(payload, contentEncoding: encoding, limit: Self.decodedLimit)
            } catch {
                return page(502, "Archive payload undecodable", "\(entry.url): \(error)")
            }
        }
        guard let base = WebURL(entry.url) else { return page(502, "Archive unreadable", "bad URL \(entry.url)") }
        var headers: [(name: String, value: String)] = []
        let type = head.contentType
        if let type { headers.append(("Content-Type", type)) }
        if let location = Self.field("Location", in: head.bytes), let target = base.resolve(location) {
            headers.append(("Location", archived(target, timestamp: timestamp)))
        }
        if let captured = WARCDate.parseTimestamp(entry.timestamp) {
            headers.append(("Memento-Datetime", UTCTime.httpDate(captured)))
        }
        headers.append(("Link", "<\(entry.url)>; rel=\"original\""))
        let media = type.map(CDXJEntry.mediaType)?.lowercased() ?? ""
        if media == "text/html" || media == "application/xhtml+xml" {
            payload = rewriteHTML(payload, contentType: type, base: base, timestamp: timestamp)
        } else if media == "text/css" {
            payload = (try? ReferenceRewriter.rewriteCSS(payload) { self.replacement($0.value, base: base, timestamp: timestamp) }) ?? payload
        }
        return Response(status: status, headers: headers, body: payload)
    }

    private func rewriteHTML(_ bytes: [UInt8], contentType: String?, base documentURL: WebURL, timestamp: String) -> [UInt8] {
        guard let extraction = try? HTMLExtractor.extract(bytes, contentType: contentType) else { return bytes }
        let base = extraction.base.flatMap { documentURL.resolve($0.value) } ?? documentURL
        let options = ReferenceRewriter.Options(dropIntegrityOfRewritten: true, neutraliseBase: true)
        return (try? ReferenceRewriter.rewrite(extraction, options: options) { reference in
            self.replacement(reference.value, base: base, timestamp: timestamp)
        }) ?? bytes
    }

    /// The replay URL of a reference: http(s) targets move into the timestamped space, anything
    /// else (fragments, `data:`, `mailto:`, `javascript:`) stays.
    func replacement(_ value: String, base: WebURL, timestamp: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), let target = base.resolve(trimmed),
              target.scheme == "http" || target.scheme == "https" else { return nil }
        return archived(target, timestamp: timestamp)
    }

    /// `/PREFIX/TIMESTAMP/URL` (the fragment kept).
    func archived(_ url: WebURL, timestamp: String) -> String {
        prefix + "/" + timestamp + "/" + url.string
    }

    private static func field(_ name: String, in head: [UInt8]) -> String? {
        let lineEnd = head.firstIndex(of: 0x0A).map { $0 + 1 } ?? head.count
        return WARCFields.parse(head[lineEnd...])[name]
    }

    private func page(_ status: Int, _ title: String, _ text: String) -> Response {
        let html = "<!doctype html><meta charset=utf-8><title>\(htmlEscape(title))</title><h1>\(htmlEscape(title))</h1><p>"
            + htmlEscape(text) + "</p><p>Archive of " + htmlEscape(site) + ".</p>"
        return Response(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(html.utf8))
    }
}
