import Foundation
import MirrorCore
import MirrorStore
import MirrorTestSupport
@testable import MirrorServer

/// A temporary output folder with published snapshots, and a server over it.
final class MirrorFixture: Sendable {
    let temporary: TemporaryDirectory
    var output: String { temporary.path + "/output" }
    static let secret = "TOP-SECRET-OUTSIDE-THE-ROOT"

    init() throws {
        temporary = try TemporaryDirectory(prefix: "mirror-server-test")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // A secret next to the output folder, and one next to each snapshot.
        try Self.secret.write(toFile: temporary.path + "/secret.txt", atomically: true, encoding: .utf8)
    }

    /// Creates `<output>/<name>/snapshots/<id>/` with `files` and points `current` at it.
    @discardableResult
    func publish(site name: String, id: String = "s1", files: [String: String], types: [String: String] = [:],
                 finishedAt: String? = "2024-05-01T10:00:00Z") throws -> String {
        let siteDirectory = output + "/" + name
        let snapshot = siteDirectory + "/snapshots/" + id
        try FileManager.default.createDirectory(atPath: snapshot + "/_mirror", withIntermediateDirectories: true)
        for (path, content) in files {
            let full = snapshot + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try content.write(toFile: full, atomically: true, encoding: .utf8)
        }
        var entries: [ManifestEntry] = []
        for (path, type) in types {
            guard let url = WebURL("https://example.test/" + path) else { continue }
            entries.append(ManifestEntry(url: url, localPath: path, status: 200, contentType: type))
        }
        try Data(Manifest(entries: entries).encoded()).write(to: URL(fileURLWithPath: snapshot + "/_mirror/manifest.tsv"))
        if let finishedAt {
            try "{\"finishedAt\": \"\(finishedAt)\", \"pages\": 1}".write(toFile: snapshot + "/_mirror/report.json", atomically: true, encoding: .utf8)
        }
        try SnapshotStore(siteDirectory: siteDirectory).point(currentAt: id)
        return siteDirectory
    }

    func site(_ name: String) -> ServedSite { ServedSite(name: name, directory: output + "/" + name) }
}

/// Starts a server and stops it when released.
final class RunningServer: Sendable {
    let server: MirrorServer
    let port: UInt16

    init(_ configuration: ServerConfiguration) throws {
        server = MirrorServer(configuration: configuration)
        port = try server.start()
    }

    deinit { server.stop() }

    /// Whether a plain GET of `/` still gets an answer.
    func stillAnswers(path: String = "/") -> Bool {
        RawClient.get(path, port: port) != nil
    }
}

/// Collects access-log entries.
final class LogCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [AccessLogEntry] = []
    var entries: [AccessLogEntry] { lock.withLock { storage } }
    func append(_ entry: AccessLogEntry) { lock.withLock { storage.append(entry) } }
}
