import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import MirrorServer

/// The per-wake-up caches (`current` read once, files shared through the ``FileMemo``) must
/// never let a request see a file or snapshot that was replaced before it was sent, and must
/// not blur confinement between paths that look alike.
@Suite("Freshness of cached lookups", .serialized)
struct FreshnessTests {
    private static func pageRequest(_ path: String, extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: a\r\n\(extra)\r\n"
    }

    /// Replaces a file the way a refresh or a live store does: write aside, then rename.
    static func replace(_ path: String, with text: String) throws {
        try text.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        guard rename(path + ".tmp", path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test("a file replaced between two requests on one keep-alive connection is served fresh")
    func replacedFile() throws {
        let fixture = try MirrorFixture()
        let site = try fixture.publish(site: "docs", files: ["page.html": "first"])
        let server = try RunningServer(ServerConfiguration(layout: .single(fixture.site("docs"))))
        let client = try #require(RawClient(port: server.port))
        client.send(Self.pageRequest("/page.html"))
        let first = try #require(client.readResponse())
        #expect(first.text == "first")
        try Self.replace(site + "/snapshots/s1/page.html", with: "second version")
        client.send(Self.pageRequest("/page.html"))
        let second = try #require(client.readResponse())
        #expect(second.text == "second version")
        #expect(second.header("Content-Length") == "14")
        #expect(second.header("ETag") != first.header("ETag"))
        // Removed: the same connection now gets 404, not a remembered copy.
        #expect(unlink(site + "/snapshots/s1/page.html") == 0)
        client.send(Self.pageRequest("/page.html"))
        #expect(client.readResponse()?.status == 404)
    }

    @Test("current switched between requests on one keep-alive connection: the next one sees the new snapshot")
    func switchedSnapshotOnOneConnection() throws {
        let fixture = try MirrorFixture()
        try fixture.publish(site: "docs", files: ["index.html": "S1", "only-in-s1.txt": "x"])
        let server = try RunningServer(ServerConfiguration(layout: .single(fixture.site("docs"))))
        let client = try #require(RawClient(port: server.port))
        client.send(Self.pageRequest("/") + Self.pageRequest("/only-in-s1.txt"))
        #expect(client.readResponse()?.text == "S1")
        #expect(client.readResponse()?.text == "x")
        try fixture.publish(site: "docs", id: "s2", files: ["index.html": "S2"])
        client.send(Self.pageRequest("/") + Self.pageRequest("/only-in-s1.txt"))
        #expect(client.readResponse()?.text == "S2")
        #expect(client.readResponse()?.status == 404)
    }

    @Test("pipelined requests for one file share it: whole, HEAD, range and conditional answers stay exact")
    func pipelinedSameFile() throws {
        let fixture = try MirrorFixture()
        let body = String(repeating: "abcdefghij", count: 100)
        try fixture.publish(site: "docs", files: ["page.html": body])
        let server = try RunningServer(ServerConfiguration(layout: .single(fixture.site("docs"))))
        let etag = try #require(RawClient.get("/page.html", port: server.port)?.header("ETag"))
        let client = try #require(RawClient(port: server.port))
        client.send(Self.pageRequest("/page.html") + Self.pageRequest("/page.html", extra: "Range: bytes=10-14\r\n")
            + "HEAD /page.html HTTP/1.1\r\nHost: a\r\n\r\n" + Self.pageRequest("/./page.html")
            + Self.pageRequest("/page.html", extra: "If-None-Match: \(etag)\r\n") + Self.pageRequest("/page.html"))
        let whole = try #require(client.readResponse())
        let range = try #require(client.readResponse())
        let head = try #require(client.readResponse(isHead: true))
        let dotted = try #require(client.readResponse())
        let conditional = try #require(client.readResponse())
        let again = try #require(client.readResponse())
        #expect(whole.text == body)
        #expect(range.status == 206)
        #expect(range.text == "abcde")
        #expect(range.header("Content-Range") == "bytes 10-14/1000")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "1000")
        #expect(dotted.text == body)
        #expect(conditional.status == 304 && conditional.body.isEmpty)
        #expect(again.text == body && again.header("ETag") == etag)
    }

    @Test("a symbolic link next to a shared file stays refused, and same paths in two sites stay apart")
    func memoKeepsConfinement() throws {
        let fixture = try MirrorFixture()
        let site = try fixture.publish(site: "a", files: ["page.html": "A page"])
        try fixture.publish(site: "b", files: ["page.html": "B page"])
        #expect(symlink("page.html", site + "/snapshots/s1/link.html") == 0)
        let server = try RunningServer(ServerConfiguration(layout: .several([fixture.site("a"), fixture.site("b")])))
        let client = try #require(RawClient(port: server.port))
        client.send(Self.pageRequest("/a/page.html") + Self.pageRequest("/a/link.html")
            + Self.pageRequest("/b/page.html") + Self.pageRequest("/a/page.html"))
        #expect(client.readResponse()?.text == "A page")
        #expect(client.readResponse()?.status == 404)
        #expect(client.readResponse()?.text == "B page")
        #expect(client.readResponse()?.text == "A page")
    }

    /// Live mode's refresh of a stale file: the handler replaces it on disk and asks for a retry.
    final class RefreshingHandler: MissHandler, @unchecked Sendable {
        let file: String
        private let lock = NSLock()
        private var refreshed = false
        init(file: String) { self.file = file }

        func isStale(site: String, path: String) -> Bool {
            path == "/page.html" && lock.withLock { !refreshed }
        }

        func handleMiss(site: String, path: String, request: HTTPRequestHead) async -> MissResult {
            guard (try? FreshnessTests.replace(file, with: "refreshed")) != nil else { return .notFound }
            lock.withLock { refreshed = true }
            return .retry
        }
    }

    @Test("a stale file refreshed by the miss handler is answered from the new file on retry")
    func retryAfterRefresh() throws {
        let fixture = try MirrorFixture()
        let site = try fixture.publish(site: "docs", files: ["page.html": "old"])
        var configuration = ServerConfiguration(layout: .single(fixture.site("docs")))
        configuration.missHandler = RefreshingHandler(file: site + "/snapshots/s1/page.html")
        let server = try RunningServer(configuration)
        let client = try #require(RawClient(port: server.port))
        client.send(Self.pageRequest("/page.html") + Self.pageRequest("/page.html"))
        let first = try #require(client.readResponse())
        #expect(first.text == "refreshed")
        #expect(first.header("Content-Length") == "9")
        #expect(client.readResponse()?.text == "refreshed")
    }

    @Test("many connections asking for several files at once each get the right bytes")
    func concurrentClients() throws {
        let fixture = try MirrorFixture()
        var files: [String: String] = [:]
        for index in 0..<8 { files["f\(index).txt"] = String(repeating: "\(index)", count: 100 + index * 997) }
        try fixture.publish(site: "docs", files: files)
        let server = try RunningServer(ServerConfiguration(layout: .single(fixture.site("docs"))))
        let clients = (0..<16).compactMap { _ in RawClient(port: server.port) }
        #expect(clients.count == 16)
        for round in 0..<5 {
            for (number, client) in clients.enumerated() {
                client.send(Self.pageRequest("/f\((number + round) % 8).txt") + Self.pageRequest("/f\((number + round + 1) % 8).txt"))
            }
            for (number, client) in clients.enumerated() {
                for step in 0..<2 {
                    let index = (number + round + step) % 8
                    #expect(client.readResponse()?.text == files["f\(index).txt"])
                }
            }
        }
    }
}
