import Foundation
import MirrorArchive
import MirrorServer

/// Connects the server's miss hook to each site's ``ArchiveReplay``: a path `/TIMESTAMP/URL`
/// (under `/SITE` when several sites are served) is answered from the site's WARC files; any
/// other miss goes on to live mode when it is on.
struct ReplayMissHandler: MissHandler {
    let replays: [String: ArchiveReplay]
    /// Path prefix of each site in the server's URL space ("" for a single site, "/NAME" for several).
    let prefixes: [String: String]
    let fallback: (any MissHandler)?

    /// `handler` with replay added for every site that has an archive folder; `handler` itself
    /// when none has.
    static func wrap(_ handler: (any MissHandler)?, sites: [(name: String, directory: String)]) -> (any MissHandler)? {
        var replays: [String: ArchiveReplay] = [:]
        var prefixes: [String: String] = [:]
        for site in sites {
            let folder = SiteRun.archiveFolder(siteDirectory: site.directory)
            guard !ArchiveFolder.warcFiles(in: folder).isEmpty else { continue }
            let prefix = sites.count == 1 ? "" : "/" + site.name
            replays[site.name] = ArchiveReplay(site: site.name, archiveFolder: folder, prefix: prefix)
            prefixes[site.name] = prefix
        }
        guard !replays.isEmpty else { return handler }
        return ReplayMissHandler(replays: replays, prefixes: prefixes, fallback: handler)
    }

    func handleMiss(site: String, path: String, request: HTTPRequestHead) async -> MissResult {
        if let replay = replays[site], let prefix = prefixes[site], request.path.hasPrefix(prefix + "/") {
            let inner = String(request.path.dropFirst(prefix.count))
            if let response = replay.respond(path: inner, query: request.query) {
                var headers = HTTPHeaders()
                for header in response.headers { headers.add(header.name, header.value) }
                return .response(status: response.status, headers: headers, body: response.body)
            }
        }
        return await fallback?.handleMiss(site: site, path: path, request: request) ?? .notFound
    }

    func isStale(site: String, path: String) -> Bool {
        fallback?.isStale(site: site, path: path) ?? false
    }
}
