import Foundation
import MirrorCore
import MirrorHTTP
#if canImport(Glibc)
import Glibc
#endif

/// Packs a site's archive as WACZ 1.1.1 (the Webrecorder package ReplayWeb.page and pywb open):
/// a zip of stored entries holding
/// - `archive/NAME.warc.gz`: every finished WARC file;
/// - `indexes/index.cdxj`: one sorted CDXJ index of every capture (the per-file indexes merged);
/// - `pages/pages.jsonl`: the HTML pages captured with status 200, each once, at its first capture;
/// - `datapackage.json`: a Frictionless data package naming every file with its size and
///   `sha256:` hash, and `datapackage-digest.json`, the hash of that file.
///
/// The package is written to a temporary name and renamed when complete (0600).
public enum WACZPackage {
    /// What was packed.
    public struct Summary: Sendable, Equatable {
        public var path: String
        public var warcs: [String]
        public var captures: Int
        public var pages: Int
        public var bytes: Int64
    }

    public static let version = "1.1.1"

    /// Packs every finished WARC file of `archiveFolder`.
    /// - Parameters:
    ///   - archiveFolder: the folder of the WARC files (`output/SITE/archive`).
    ///   - site: the site's name (the package's title).
    ///   - mainPage: the start URL, named as the main page when it was captured.
    ///   - path: the package to write; it must not exist.
    ///   - date: the package's creation time.
    /// - Throws: ``ArchiveError/noArchive(site:folder:)`` without WARC files, and ``ArchiveError``
    ///   for a file that cannot be read or written.
    public static func build(archiveFolder: String, site: String, mainPage: String?, to path: String,
                             date: Date = Date()) throws(ArchiveError) -> Summary {
        let names = ArchiveFolder.warcFiles(in: archiveFolder)
        guard !names.isEmpty else { throw .noArchive(site: site, folder: archiveFolder) }
        let entries = try ArchiveFolder.index(of: archiveFolder)
        let index = CDXJIndex.text(entries)
        let pages = pagesJSONL(entries)

        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        do {
            let zip = try ZipWriter(path: temporary, date: date)
            var resources: [(path: String, bytes: UInt64, hash: String)] = []
            for name in names {
                let (size, sha) = try zip.addFile(name: "archive/" + name, path: archiveFolder + "/" + name)
                resources.append(("archive/" + name, size, sha))
            }
            try zip.add(name: "indexes/index.cdxj", bytes: index)
            resources.append(("indexes/index.cdxj", UInt64(index.count), SHA256Digest.hex(index)))
            try zip.add(name: "pages/pages.jsonl", bytes: pages.bytes)
            resources.append(("pages/pages.jsonl", UInt64(pages.bytes.count), SHA256Digest.hex(pages.bytes)))
            let main = mainPage.flatMap { url in entries.filter { $0.url == url && $0.status == "200" }.min { $0.timestamp < $1.timestamp } }
            let package = datapackage(resources: resources, site: site, main: main, created: date)
            try zip.add(name: "datapackage.json", bytes: package)
            let digest = "{\n  \"path\": \"datapackage.json\",\n  \"hash\": \"sha256:\(SHA256Digest.hex(package))\"\n}"
            try zip.add(name: "datapackage-digest.json", bytes: Array(digest.utf8))
            try zip.finish()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ArchiveError.from(errno: code, operation: "rename", path: path)
        }
        var info = stat()
        _ = stat(path, &info)
        return Summary(path: path, warcs: names, captures: entries.count, pages: pages.count, bytes: Int64(info.st_size))
    }

    /// The index entries of a WARC file without an index beside it (read from the file).
    static func indexEntries(of path: String) throws(ArchiveError) -> [CDXJEntry] {
        let scan = try WARCReader(path: path).scan()
        let name = (path as NSString).lastPathComponent
        return scan.records.compactMap {
            CDXJEntry.forRecord(type: $0.type ?? .resource, fields: $0.fields, head: $0.httpHead, offset: $0.offset,
                                length: $0.length, filename: name)
        }
    }

    /// `pages/pages.jsonl`: the header line, then each HTML page captured with 200, once.
    static func pagesJSONL(_ entries: [CDXJEntry]) -> (bytes: [UInt8], count: Int) {
        var first: [String: CDXJEntry] = [:]
        for entry in entries where entry.status == "200" && (entry.mime == "text/html" || entry.mime == "application/xhtml+xml") {
            if let known = first[entry.url], known.timestamp <= entry.timestamp { continue }
            first[entry.url] = entry
        }
        var lines = ["{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}"]
        for entry in first.values.sorted(by: { ($0.timestamp, $0.url) < ($1.timestamp, $1.url) }) {
            let id = String(SHA256Digest.hex(Array((entry.timestamp + " " + entry.url).utf8)).prefix(32))
            lines.append("{\"id\": \(JSONText.quoted(id)), \"url\": \(JSONText.quoted(entry.url)), \"ts\": \(JSONText.quoted(isoDate(entry.timestamp)))}")
        }
        return (Array((lines.joined(separator: "\n") + "\n").utf8), first.count)
    }

    /// `2025-12-02T00:00:00Z` from `20251202000000`.
    static func isoDate(_ timestamp: String) -> String {
        WARCDate.parseTimestamp(timestamp).map { UTCTime.iso8601($0) } ?? timestamp
    }

    static func datapackage(resources: [(path: String, bytes: UInt64, hash: String)], site: String, main: CDXJEntry?,
                            created: Date) -> [UInt8] {
        var text = "{\n  \"profile\": \"data-package\",\n  \"resources\": [\n"
        text += resources.map { resource in
            "    {\n      \"name\": \(JSONText.quoted(((resource.path as NSString).lastPathComponent).lowercased())),\n"
                + "      \"path\": \(JSONText.quoted(resource.path)),\n      \"hash\": \"sha256:\(resource.hash)\",\n"
                + "      \"bytes\": \(resource.bytes)\n    }"
        }.joined(separator: ",\n")
        text += "\n  ],\n  \"title\": \(JSONText.quoted(site)),\n"
        if let main {
            text += "  \"mainPageURL\": \(JSONText.quoted(main.url)),\n  \"mainPageDate\": \(JSONText.quoted(isoDate(main.timestamp))),\n"
        }
        text += "  \"created\": \(JSONText.quoted(UTCTime.iso8601(created))),\n  \"wacz_version\": \"\(version)\",\n"
        text += "  \"software\": \"mtls-mirror \(MirrorVersion.string)\"\n}\n"
        return Array(text.utf8)
    }
}
