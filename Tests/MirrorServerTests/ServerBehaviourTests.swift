import Foundation
import MirrorCore
import Testing
@testable import MirrorServer

private let pageHTML = "<!doctype html><p>start</p>"
private let bigBody = String(repeating: "0123456789abcdef", count: 16 * 1024)  // 256 KiB: sendfile path

private func makeSite() throws -> (MirrorFixture, ServedSite) {
    let fixture = try MirrorFixture()
    try fixture.publish(site: "docs", files: [
        "index.html": pageHTML, "guide/index.html": "guide", "data.bin": bigBody, "style.css": "p{}", "recorded.x": "r",
    ], types: ["recorded.x": "application/x-recorded", "index.html": "text/html"])
    return (fixture, fixture.site("docs"))
}

private func configuration(_ site: ServedSite, _ change: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
    var configuration = ServerConfiguration(layout: .single(site))
    change(&configuration)
    return configuration
}

@Suite("Server behaviour", .serialized)
struct ServerBehaviourTests {
    @Test("keep-alive and pipelining: three requests in one write, three responses in order")
    func pipelining() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site))
        let client = try #require(RawClient(port: server.port))
        client.send("GET /style.css HTTP/1.1\r\nHost: a\r\n\r\nHEAD /index.html HTTP/1.1\r\nHost: a\r\n\r\nGET /guide/ HTTP/1.1\r\nHost: a\r\n\r\n")
        let first = try #require(client.readResponse())
        let second = try #require(client.readResponse(isHead: true))
        let third = try #require(client.readResponse())
        #expect(first.text == "p{}")
        #expect(first.header("Content-Type") == "text/css")
        #expect(second.status == 200)
        #expect(second.header("Content-Length") == String(pageHTML.utf8.count))
        #expect(second.body.isEmpty)
        #expect(third.text == "guide")
        // The connection stays usable, and HEAD really sent no body (or the next read would be off).
        client.send("GET /recorded.x HTTP/1.1\r\nHost: a\r\n\r\n")
        let fourth = try #require(client.readResponse())
        #expect(fourth.text == "r")
        #expect(fourth.header("Content-Type") == "application/x-recorded")
    }

    @Test("headers: manifest type, security headers, validators, 304 and ranges over the wire")
    func headersAndConditionals() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site))
        let reply = try #require(RawClient.get("/", port: server.port))
        #expect(reply.status == 200)
        #expect(reply.text == pageHTML)
        #expect(reply.header("Content-Type") == "text/html")
        #expect(reply.header("X-Content-Type-Options") == "nosniff")
        #expect(reply.header("Referrer-Policy") == "no-referrer")
        #expect(reply.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
        let etag = try #require(reply.header("ETag"))
        #expect(reply.header("Last-Modified") != nil)
        let notModified = try #require(RawClient.get("/", port: server.port, headers: "If-None-Match: \(etag)\r\n"))
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        let partial = try #require(RawClient.get("/data.bin", port: server.port, headers: "Range: bytes=16-31\r\n"))
        #expect(partial.status == 206)
        #expect(partial.text == "0123456789abcdef")
        let unsatisfiable = try #require(RawClient.get("/data.bin", port: server.port, headers: "Range: bytes=999999-\r\n"))
        #expect(unsatisfiable.status == 416)
        #expect(unsatisfiable.header("Content-Range") == "bytes */\(bigBody.utf8.count)")
        let whole = try #require(RawClient.get("/data.bin", port: server.port))
        #expect(whole.body.count == bigBody.utf8.count)
        #expect(whole.text == bigBody)
    }

    @Test("directories redirect to the slash form; 404 page; 405 for other methods")
    func redirectsAndErrors() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site) { $0.liveEnabled = true })
        let redirect = try #require(RawClient.get("/guide?x=1", port: server.port))
        #expect(redirect.status == 301)
        #expect(redirect.header("Location") == "/guide/?x=1")
        let missing = try #require(RawClient.get("/nope<script>", port: server.port))
        #expect(missing.status == 400 || missing.status == 404)
        let missing2 = try #require(RawClient.get("/nope%3Cb%3E.html", port: server.port))
        #expect(missing2.status == 404)
        #expect(missing2.text.contains("Not in the mirror"))
        #expect(missing2.text.contains("Live fetch is enabled"))
        #expect(missing2.text.contains("&lt;b&gt;"))
        #expect(!missing2.text.contains("<b>"))
        let client = try #require(RawClient(port: server.port))
        client.send("DELETE / HTTP/1.1\r\nHost: a\r\n\r\n")
        let refused = try #require(client.readResponse())
        #expect(refused.status == 405)
        #expect(refused.header("Allow") == "GET, HEAD")
    }

    @Test("several sites: index page with escaped names, sites under /NAME/, switch of current")
    func severalSites() throws {
        let fixture = try MirrorFixture()
        try fixture.publish(site: "a&b", files: ["index.html": "A1"], types: ["index.html": "text/html"])
        try fixture.publish(site: "other", files: ["index.html": "O"], finishedAt: nil)
        let server = try RunningServer(ServerConfiguration(layout: .several([fixture.site("a&b"), fixture.site("other")])))
        let index = try #require(RawClient.get("/", port: server.port))
        #expect(index.status == 200)
        #expect(index.text.contains("a&amp;b"))
        #expect(index.text.contains("href=\"/a&amp;b/\""))
        #expect(index.text.contains("2024-05-01T10:00:00Z"))
        #expect(index.text.contains("<td>1</td>"))
        #expect(RawClient.get("/other", port: server.port)?.header("Location") == "/other/")
        #expect(RawClient.get("/a&b/", port: server.port)?.text == "A1")
        #expect(RawClient.get("/missing/", port: server.port)?.status == 404)
        // A refresh publishes a new snapshot: the next request sees it.
        try fixture.publish(site: "a&b", id: "s2", files: ["index.html": "A2"])
        #expect(RawClient.get("/a&b/", port: server.port)?.text == "A2")
    }

    @Test("slowloris: a client sending one byte a second is cut off by the header deadline")
    func slowloris() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site) { $0.headerTimeout = 1 })
        let client = try #require(RawClient(port: server.port, timeout: 0.2))
        let started = Date()
        var closed = false
        for byte in "GET / HTTP/1.1\r\nHost: a\r\nX-Slow: aaaaaaaaaaaaaaa".utf8 {
            if !client.send([byte]) { closed = true; break }
            if client.waitForClose() { closed = true; break }
            Thread.sleep(forTimeInterval: 0.3)
            if Date().timeIntervalSince(started) > 5 { break }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(closed)
        #expect(elapsed >= 0.9 && elapsed < 3, "closed after \(elapsed) s")
        #expect(server.stillAnswers())
    }

    @Test("oversized request line gets 414, too many headers 431, and the server still answers")
    func limits() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site))
        let client = try #require(RawClient(port: server.port))
        client.send("GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: a\r\n\r\n")
        let long = try #require(client.readResponse())
        #expect(long.status == 414)
        #expect(long.header("Connection") == "close")
        let many = try #require(RawClient.get("/", port: server.port, headers: (0..<150).map { "X-\($0): v\r\n" }.joined()))
        #expect(many.status == 431)
        let bad = try #require(RawClient.get("/", port: server.port, headers: "Bad Header: x\r\n"))
        #expect(bad.status == 400)
        #expect(RawClient.get("/style.css", port: server.port)?.text == "p{}")
    }

    @Test("max connections: beyond the cap a client gets 503, and a slot frees up on close")
    func maxConnections() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site) { $0.maxConnections = 3 })
        var held = try (0..<3).map { _ in try #require(RawClient(port: server.port)) }
        for client in held {
            client.send("GET /style.css HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let extra = try #require(RawClient(port: server.port))
        #expect(extra.readResponse()?.status == 503)
        held.removeFirst()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(server.stillAnswers())
        _ = held
    }

    @Test("remote bind without allowRemote or token is refused with a typed error")
    func remoteBindRefused() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        for (allow, token) in [(false, nil), (true, nil), (false, Secret("t"))] as [(Bool, Secret?)] {
            let server = MirrorServer(configuration: configuration(site) {
                $0.host = "0.0.0.0"
                $0.allowRemote = allow
                $0.accessToken = token
            })
            #expect(throws: ServerError.self) { try server.start() }
            do {
                try server.start()
            } catch {
                guard case .remoteBindRefused(let address, _) = error else { Issue.record("wrong error \(error)"); continue }
                #expect(address == "0.0.0.0")
                #expect(error.category == .usage)
            }
        }
        let bad = MirrorServer(configuration: configuration(site) { $0.host = "not-an-ip" })
        #expect(throws: ServerError.invalidAddress(address: "not-an-ip")) { try bad.start() }
    }

    @Test("access token: bearer, query sets an HttpOnly SameSite cookie, cookie works, else 401")
    func accessToken() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let log = LogCollector()
        let server = try RunningServer(configuration(site) {
            $0.accessToken = Secret("s3cret-token")
            $0.accessLog = { log.append($0) }
        })
        #expect(RawClient.get("/style.css", port: server.port)?.status == 401)
        #expect(RawClient.get("/style.css", port: server.port, headers: "Authorization: Bearer wrong\r\n")?.status == 401)
        #expect(RawClient.get("/style.css", port: server.port, headers: "Authorization: Bearer s3cret-token\r\n")?.text == "p{}")
        let viaQuery = try #require(RawClient.get("/style.css?a=1&token=s3cret-token", port: server.port))
        #expect(viaQuery.status == 303)
        #expect(viaQuery.header("Location") == "/style.css?a=1")
        let cookie = try #require(viaQuery.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(RawClient.get("/style.css", port: server.port, headers: "Cookie: x=1; mtls_mirror_token=s3cret-token\r\n")?.text == "p{}")
        Thread.sleep(forTimeInterval: 0.1)
        let lines = log.entries.map(\.commonLogFormat)
        #expect(lines.count >= 5)
        #expect(!lines.joined().contains("s3cret-token"))
        #expect(lines.contains { $0.contains("\"GET /style.css?a=1&token=REDACTED HTTP/1.1\" 303") })
    }

    @Test("miss handler: called off-loop, its response is delivered and pipelining resumes")
    func missHandler() throws {
        struct Handler: MissHandler {
            func handleMiss(site: String, path: String, request: HTTPRequestHead) async -> MissResult {
                try? await Task.sleep(nanoseconds: 50_000_000)
                if path == "/gone" { return .notFound }
                return .response(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array("live:\(site)\(path)".utf8))
            }
        }
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site) { $0.missHandler = Handler() })
        let client = try #require(RawClient(port: server.port))
        client.send("GET /fresh HTTP/1.1\r\nHost: a\r\n\r\nGET /gone HTTP/1.1\r\nHost: a\r\n\r\nGET /style.css HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.text == "live:docs/fresh")
        #expect(client.readResponse()?.status == 404)
        #expect(client.readResponse()?.text == "p{}")
    }

    @Test("stop is graceful and the port is released")
    func stop() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = MirrorServer(configuration: configuration(site))
        let port = try server.start()
        #expect(throws: ServerError.alreadyStarted) { try server.start() }
        let idle = try #require(RawClient(port: port))
        server.stop()
        #expect(idle.waitForClose())
        #expect(RawClient(port: port) == nil)
    }

    @Test("throughput sanity: 2,000 keep-alive requests")
    func throughput() throws {
        let (fixture, site) = try makeSite()
        defer { withExtendedLifetime(fixture) {} }
        let server = try RunningServer(configuration(site))
        let client = try #require(RawClient(port: server.port))
        let started = Date()
        var ok = 0
        for batch in 0..<200 {
            client.send(String(repeating: "GET /style.css HTTP/1.1\r\nHost: a\r\n\r\n", count: 10))
            for _ in 0..<10 where client.readResponse()?.status == 200 { ok += 1 }
            _ = batch
        }
        let seconds = Date().timeIntervalSince(started)
        print("MirrorServer throughput: \(ok) requests in \(String(format: "%.3f", seconds)) s = \(Int(Double(ok) / seconds)) requests/s (10-deep pipelining, one connection)")
        #expect(ok == 2000)
    }
}
