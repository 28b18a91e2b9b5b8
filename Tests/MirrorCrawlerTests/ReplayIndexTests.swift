import Foundation
import MirrorCore
import MirrorStore
import MirrorTestSupport
import Testing
@testable import MirrorCrawler

/// The recorded answers `serve` gives an application whose scripts were kept: GET by URL
/// (the stored file), POST by URL and body.
@Suite struct ReplayIndexTests {
    static let origin = "https://app.test"

    func site(scripts: RenderSettings.Scripts) throws -> (TemporaryDirectory, String) {
        let scratch = try TemporaryDirectory()
        let site = scratch.path + "/app"
        let snapshot = site + "/snapshots/s1"
        try FileManager.default.createDirectory(atPath: snapshot + "/_mirror/replay", withIntermediateDirectories: true)
        let entries = [
            ManifestEntry(url: WebURL("\(Self.origin)/")!, localPath: "index.html", status: 200, contentType: "text/html"),
            ManifestEntry(url: WebURL("\(Self.origin)/api/items?page=2")!, localPath: "api/items@page=2.json", status: 200,
                          contentType: "application/json"),
            ManifestEntry(url: WebURL("\(Self.origin)/gone.json")!, localPath: "gone.json", status: nil, contentType: nil),
        ]
        try Data(Manifest(entries: entries).encoded()).write(to: URL(fileURLWithPath: snapshot + "/_mirror/manifest.tsv"))
        let body = Array(#"{"q":"a"}"#.utf8)
        let answer = Array(#"{"hits":["a"]}"#.utf8)
        let answerSHA = SHA256Digest.hex(answer)
        try Data(answer).write(to: URL(fileURLWithPath: snapshot + "/" + ReplayEntry.file(sha256: answerSHA)))
        let record = RenderRecord(url: "\(Self.origin)/", scripts: scripts, completion: "idle", seconds: 0.2,
                                  document: .init(method: "GET", url: "\(Self.origin)/", status: 200), dependencies: [])
        let file = RenderFile(scripts: scripts, pages: [record], replay: [
            ReplayEntry(method: "POST", url: "\(Self.origin)/api/search", requestSHA256: SHA256Digest.hex(body), status: 200,
                        contentType: "application/json", sha256: answerSHA, page: "\(Self.origin)/"),
        ])
        try JSONEncoder().encode(file).write(to: URL(fileURLWithPath: snapshot + "/" + RenderFile.path))
        try SnapshotStore(siteDirectory: site).point(currentAt: "s1")
        return (scratch, site)
    }

    @Test func answersGetByURLAndPostByURLAndBody() throws {
        let (scratch, site) = try site(scripts: .keep)
        defer { withExtendedLifetime(scratch) {} }
        let index = try #require(ReplayIndex.load(siteDirectory: site))
        #expect(index.answer(method: "GET", path: "/api/items", query: "page=2", body: nil)
            == .file(localPath: "api/items@page=2.json", contentType: "application/json"))
        #expect(index.answer(method: "GET", path: "/gone.json", query: nil, body: nil) == nil, "not mirrored: no answer")
        #expect(index.answer(method: "POST", path: "/api/search", query: nil, body: Array(#"{"q":"a"}"#.utf8))
            == .recorded(status: 200, contentType: "application/json", body: Array(#"{"hits":["a"]}"#.utf8)))
        #expect(index.answer(method: "POST", path: "/api/search", query: nil, body: Array(#"{"q":"b"}"#.utf8)) == nil,
                "another body was never recorded")
        #expect(index.answer(method: "DELETE", path: "/api/search", query: nil, body: nil) == nil)
    }

    @Test func aSiteRenderedWithScriptsNeutralisedHasNoReplay() throws {
        let (scratch, site) = try site(scripts: .neutralise)
        defer { withExtendedLifetime(scratch) {} }
        #expect(ReplayIndex.load(siteDirectory: site) == nil)
    }
}
