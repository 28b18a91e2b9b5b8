import Foundation
import MirrorCore
import Testing
@testable import MirrorServer

/// The server's request hook (render mode's replay): asked before the file tree, with the
/// request's query and POST body; POST reaches it, and nothing else, when it is set.
@Suite("Request interceptor", .serialized)
struct RequestInterceptorTests {
    /// Answers `POST /api/search` by body and `GET /api/items?page=2` with another file.
    struct Recorded: RequestInterceptor {
        func intercept(site: String, path: RequestPath, request: HTTPRequestHead) -> InterceptResult? {
            switch (request.method, path.relativePath, request.query) {
            case ("POST", "api/search", _):
                guard request.body == Array(#"{"q":"a"}"#.utf8) else { return nil }
                return .response(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(#"{"hits":1}"#.utf8))
            case ("GET", "api/items", "page=2"):
                return .file(relativePath: "api/items@page=2.json", contentType: "application/json")
            case ("GET", "escape", _):
                return .file(relativePath: "_mirror/manifest.tsv", contentType: nil)
            default:
                return nil
            }
        }
    }

    func server(interceptor: (any RequestInterceptor)?) throws -> (MirrorFixture, RunningServer) {
        let fixture = try MirrorFixture()
        try fixture.publish(site: "app", files: ["index.html": "<p>app", "api/items": "[1]", "api/items@page=2.json": "[2]"])
        var configuration = ServerConfiguration(layout: .single(fixture.site("app")))
        configuration.requestInterceptor = interceptor
        return (fixture, try RunningServer(configuration))
    }

    @Test func aPostIsAnsweredByItsBodyAndAQueryByItsFile() throws {
        let (fixture, server) = try server(interceptor: Recorded())
        defer { withExtendedLifetime(fixture) {} }
        let client = try #require(RawClient(port: server.port))
        client.send("POST /api/search HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n{\"q\":\"a\"}")
        let matched = try #require(client.readResponse())
        #expect(matched.status == 200 && matched.text == #"{"hits":1}"#)
        client.send("POST /api/search HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n{\"q\":\"b\"}")
        #expect(client.readResponse()?.status == 405, "another body has no recorded answer")
        let page2 = try #require(RawClient.get("/api/items?page=2", port: server.port))
        #expect(page2.status == 200 && page2.text == "[2]" && page2.header("Content-Type") == "application/json")
        #expect(RawClient.get("/api/items", port: server.port)?.text == "[1]", "without the query: the plain file")
        #expect(RawClient.get("/escape", port: server.port)?.status == 404, "_mirror/ is never served, whoever asks")
    }

    @Test func withoutAnInterceptorPostIsRefused() throws {
        let (fixture, server) = try server(interceptor: nil)
        defer { withExtendedLifetime(fixture) {} }
        let client = try #require(RawClient(port: server.port))
        client.send("POST /api/search HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n{\"q\":\"a\"}")
        let refused = try #require(client.readResponse())
        #expect(refused.status == 405)
    }

    @Test(arguments: [1, 3, 7, 100])
    func aSmallBodyIsKeptWhateverTheChunking(chunk: Int) {
        let bytes = Array("POST /f HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello worldGET /n HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        var parser = HTTPRequestParser()
        var heads: [HTTPRequestHead] = []
        var index = 0
        while index < bytes.count {
            parser.feed(bytes[index..<min(bytes.count, index + chunk)])
            index += chunk
            while let event = parser.next() { if case .request(let head) = event { heads.append(head) } }
        }
        #expect(heads.map(\.method) == ["POST", "GET"])
        #expect(heads.first?.body == Array("hello world".utf8))
        #expect(heads.last?.body == nil)
    }
}
