import Foundation
import MirrorCore
import MirrorCrawler
import MirrorServer

/// Connects the server's miss hook to each site's ``LiveFetcher``.
struct LiveMissHandler: MissHandler {
    let fetchers: [String: LiveFetcher]
    /// Path prefix of each site in the server's URL space ("" for a single site, "/NAME" for several).
    let prefixes: [String: String]

    func handleMiss(site: String, path: String, request: HTTPRequestHead) async -> MissResult {
        guard let fetcher = fetchers[site] else { return .notFound }
        switch await fetcher.resolve(path: path) {
        case .stored:
            return .retry
        case .moved(let localPath):
            let location = (prefixes[site] ?? "") + "/" + Self.encode(localPath)
            return .response(status: 302, headers: HTTPHeaders([("Location", location)]), body: [])
        case .notInScope:
            return .notFound
        case .failed(let reason, let staleCopy):
            if staleCopy, let copy = await fetcher.storedCopy(path: path) {
                var headers = HTTPHeaders([("Warning", "111 - \"Revalidation Failed\""), ("X-Mirror-Notice", "origin unreachable; stored copy")])
                if let type = copy.contentType { headers.add("Content-Type", type) }
                return .response(status: 200, headers: headers, body: Self.withNotice(copy.bytes, type: copy.contentType, reason: reason))
            }
            let page = "<!doctype html><meta charset=utf-8><title>Origin unavailable</title><h1>Not in the mirror, and the origin failed</h1><p>"
                + htmlEscape(reason) + "</p>"
            return .response(status: 502, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: Array(page.utf8))
        }
    }

    func isStale(site: String, path: String) -> Bool {
        fetchers[site]?.isStale(path: path) ?? false
    }

    /// Adds a visible banner to an HTML page served from a stale copy (after `<body…>`).
    static func withNotice(_ bytes: [UInt8], type: String?, reason: String) -> [UInt8] {
        guard type?.lowercased().hasPrefix("text/html") ?? false else { return bytes }
        let banner = Array(("<div style=\"background:#fee;border:1px solid #c00;padding:4px;font:14px sans-serif\">"
            + "mtls-mirror: the origin could not be reached (" + htmlEscape(reason) + "); this is the stored copy.</div>").utf8)
        let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        let marker = Array("<body".utf8)
        guard let start = lower.firstRange(of: marker), let close = lower[start.upperBound...].firstIndex(of: UInt8(ascii: ">")) else {
            return banner + bytes
        }
        return Array(bytes[...close]) + banner + Array(bytes[(close + 1)...])
    }

    static func encode(_ path: String) -> String {
        // Split on the byte ("/" plus a combining mark is one Character).
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
            let segment = String(decoding: $0, as: UTF8.self)
            return segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? segment
        }.joined(separator: "/")
    }
}
