import Foundation
import MirrorCore
import MirrorStore

/// The recorded answers of a snapshot whose pages were rendered with their scripts kept
/// (``RenderSettings/Scripts/keep``): what `serve` gives an application's XHR and fetch calls,
/// so that it runs again offline.
///
/// GET (and HEAD) calls are answered by the URL's stored file (the manifest says which, and
/// its type); a POST by the answer recorded for the same URL *and the same body* (by its
/// SHA-256), kept under `_mirror/replay/`.
public struct ReplayIndex: Sendable {
    /// What to answer.
    public enum Answer: Sendable, Equatable {
        /// The snapshot's file at this path, with this type.
        case file(localPath: String, contentType: String?)
        /// A recorded answer (a POST's).
        case recorded(status: Int, contentType: String?, body: [UInt8])
    }

    /// The snapshot's ID (its folder name).
    public let snapshot: String
    /// The site's primary origin (`https://host:port`): request paths are resolved against it.
    public let origin: WebURL
    private let fileSystem: SecureFileSystem
    private let files: [String: (path: String, type: String?)]
    private let posts: [String: ReplayEntry]

    /// The index of a site's current snapshot, when it was mirrored in render mode with its
    /// scripts kept; nil otherwise (no snapshot, no `_mirror/render.json`, scripts neutralised).
    public static func load(siteDirectory: String) -> ReplayIndex? {
        guard let store = try? SnapshotStore(siteDirectory: siteDirectory), let id = store.currentID, let path = store.currentPath,
              let fileSystem = try? SecureFileSystem(root: path, create: false),
              let render = RenderLedger.load(from: fileSystem), render.scripts == .keep,
              let first = render.pages.first.flatMap({ WebURL($0.url) }),
              let manifest = (try? Manifest.loadIfPresent(from: fileSystem, at: "_mirror/manifest.tsv")) ?? nil
        else { return nil }
        var files: [String: (String, String?)] = [:]
        for entry in manifest {
            guard let local = entry.localPath, let status = entry.status, (200...299).contains(status) else { continue }
            files[entry.url] = (local, entry.contentType)
        }
        var posts: [String: ReplayEntry] = [:]
        for entry in render.replay { posts[Self.key(entry.method, entry.url, entry.requestSHA256)] = entry }
        let origin = first.resolve("/") ?? first
        return ReplayIndex(snapshot: id, origin: origin, fileSystem: fileSystem, files: files, posts: posts)
    }

    private static func key(_ method: String, _ url: String, _ body: String?) -> String {
        "\(method) \(url) \(body ?? "-")"
    }

    /// The answer for a request the local server received.
    /// - Parameters:
    ///   - method: `GET`, `HEAD` or `POST`.
    ///   - path: the percent-encoded path below the site, starting with `/`.
    ///   - query: the raw query, without `?`.
    ///   - body: a POST's body.
    public func answer(method: String, path: String, query: String?, body: [UInt8]?) -> Answer? {
        guard let url = origin.resolve(path + (query.map { "?" + $0 } ?? ""))?.withoutFragment else { return nil }
        switch method {
        case "GET", "HEAD":
            return files[url.string].map { .file(localPath: $0.path, contentType: $0.type) }
        case "POST":
            let digest = SHA256Digest.hex(body ?? [])
            guard let entry = posts[Self.key("POST", url.string, digest)] ?? (body?.isEmpty ?? true ? posts[Self.key("POST", url.string, nil)] : nil),
                  let bytes = try? fileSystem.read(ReplayEntry.file(sha256: entry.sha256))
            else { return nil }
            return .recorded(status: entry.status, contentType: entry.contentType, body: bytes)
        default:
            return nil
        }
    }
}
