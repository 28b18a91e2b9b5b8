import Foundation
import MirrorCore

/// The server's own HTML pages (site index, errors). Every interpolated value is escaped.
enum Pages {
    /// One row of the site index.
    struct SiteRow {
        var name: String
        var link: String
        var lastRefresh: Date?
        var pageCount: Int?
    }

    static func document(title: String, body: String) -> [UInt8] {
        Array("""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(htmlEscape(title))</title>
        <style>body{font-family:system-ui,sans-serif;margin:2em;max-width:50em}table{border-collapse:collapse}td,th{padding:.3em 1em;text-align:left;border-bottom:1px solid #ddd}</style>
        </head><body>
        \(body)
        </body></html>

        """.utf8)
    }

    /// The list of sites served at `/` when there are several.
    static func siteIndex(_ rows: [SiteRow]) -> [UInt8] {
        var table = "<h1>Mirrored sites</h1>\n<table><tr><th>Site</th><th>Last refresh</th><th>Pages</th></tr>\n"
        for row in rows {
            let refreshed = row.lastRefresh.map { UTCTime.iso8601($0) } ?? "never"
            let pages = row.pageCount.map(String.init) ?? "no snapshot yet"
            table += "<tr><td><a href=\"\(htmlEscape(row.link))\">\(htmlEscape(row.name))</a></td>"
                + "<td>\(htmlEscape(refreshed))</td><td>\(htmlEscape(pages))</td></tr>\n"
        }
        table += "</table>"
        return document(title: "Mirrored sites", body: table)
    }

    /// The 404 page: not in the mirror.
    static func notFound(path: String, liveEnabled: Bool) -> [UInt8] {
        var body = "<h1>Not in the mirror</h1>\n<p><code>\(htmlEscape(path))</code> is not in the mirror.</p>\n"
        if liveEnabled {
            body += "<p>Live fetch is enabled, but this address could not be fetched either.</p>\n"
        }
        body += "<p><a href=\"/\">Back to the index</a></p>"
        return document(title: "Not in the mirror", body: body)
    }

    /// A short page for other errors.
    static func error(status: Int, reason: String) -> [UInt8] {
        document(title: "\(status) \(HTTPStatus.phrase(status))",
                 body: "<h1>\(status) \(htmlEscape(HTTPStatus.phrase(status)))</h1>\n<p>\(htmlEscape(reason))</p>")
    }
}
