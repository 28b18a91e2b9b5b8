import Foundation
import MirrorCore
import MirrorCrawler
import MirrorServer
import MirrorStore

/// Connects the server's request hook to render mode's recorded answers (``ReplayIndex``), for
/// the sites whose current snapshot was rendered with its scripts kept: an application's XHR and
/// fetch calls are answered by method, URL and (for a POST) body, so it runs again offline.
///
/// Each site's index is read again when its `current` snapshot changes (checked at most once a
/// second; the server calls this on its loop thread for every request).
final class ReplayInterceptor: RequestInterceptor, @unchecked Sendable {
    private let directories: [String: String]
    private let lock = NSLock()
    private var indexes: [String: (index: ReplayIndex?, checked: Date, current: String?)] = [:]

    /// - Parameter directories: site name → site folder (`output/NAME`).
    init(directories: [String: String]) {
        self.directories = directories
    }

    /// Whether any of `directories` is a site rendered with its scripts kept.
    static func anyReplays(_ directories: [String: String]) -> Bool {
        directories.values.contains { ReplayIndex.load(siteDirectory: $0) != nil }
    }

    func intercept(site: String, path: RequestPath, request: HTTPRequestHead) -> InterceptResult? {
        guard let index = index(for: site) else { return nil }
        switch index.answer(method: request.method, path: path.encoded(trailingSlash: path.trailingSlash), query: request.query,
                            body: request.body) {
        case nil:
            if request.method == "POST" {
                return .response(status: 404, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                                 body: Array("mtls-mirror: no answer was recorded for this request while the site was rendered\n".utf8))
            }
            return nil
        case .file(let localPath, let contentType):
            // The plain path serves itself; only a different file (a query's) is redirected here.
            if localPath == path.relativePath || (path.trailingSlash && localPath == path.relativePath + (path.segments.isEmpty ? "" : "/") + "index.html") {
                return nil
            }
            return .file(relativePath: localPath, contentType: contentType)
        case .recorded(let status, let contentType, let body):
            var headers = HTTPHeaders()
            if let contentType { headers.add("Content-Type", contentType) }
            return .response(status: status, headers: headers, body: body)
        }
    }

    private func index(for site: String) -> ReplayIndex? {
        guard let directory = directories[site] else { return nil }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        if let known = indexes[site], now.timeIntervalSince(known.checked) < 1 { return known.index }
        let current = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + SnapshotStore.currentLink)
        if let known = indexes[site], known.current == current {
            indexes[site] = (known.index, now, current)
            return known.index
        }
        let index = ReplayIndex.load(siteDirectory: directory)
        indexes[site] = (index, now, current)
        return index
    }
}
