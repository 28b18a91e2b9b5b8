import Foundation
import Testing
@testable import MirrorArchive

/// The HTTP heads that go into records: HTTP/2 lines written as HTTP/1.1, chunking named for
/// what it was, credentials redacted, every other byte kept.
@Suite struct RecordedHeadTests {
    @Test(arguments: [
        ("HTTP/2 200 \r\n", "HTTP/1.1 200 OK\r\n", 200),
        ("HTTP/2 404\r\n", "HTTP/1.1 404 Not Found\r\n", 404),
        ("HTTP/2 304 \r\n", "HTTP/1.1 304 Not Modified\r\n", 304),
        ("HTTP/1.1 200 Fine Thanks\r\n", "HTTP/1.1 200 Fine Thanks\r\n", 200),
        ("HTTP/1.0 301 Moved\r\n", "HTTP/1.0 301 Moved\r\n", 301),
        ("HTTP/3 299 \r\n", "HTTP/1.1 299 Unknown\r\n", 299),
        ("GET /a?b=1 HTTP/2\r\n", "GET /a?b=1 HTTP/1.1\r\n", 0),
        ("GET / HTTP/1.1\r\n", "GET / HTTP/1.1\r\n", 0),
    ])
    func startLines(raw: String, expected: String, status: Int) {
        let head = RecordedHead(raw: Array((raw + "x-a: 1\r\n\r\n").utf8), redacted: [])
        #expect(String(decoding: head.bytes, as: UTF8.self) == expected + "x-a: 1\r\n\r\n")
        #expect(head.status == status)
    }

    @Test(arguments: [
        ("Authorization: Bearer s3cret", "Authorization: REDACTED"),
        ("cookie: session=abc; other=1", "cookie: REDACTED"),
        ("Set-Cookie: id=42; Secure; HttpOnly", "Set-Cookie: REDACTED"),
        ("PROXY-AUTHORIZATION: Basic dXNlcjpwYXNz", "PROXY-AUTHORIZATION: REDACTED"),
        ("Transfer-Encoding: chunked", "X-Archive-Orig-Transfer-Encoding: chunked"),
        ("Cookie-Policy: keep", "Cookie-Policy: keep"),
        ("X-Authorization-Hint:  spaced  ", "X-Authorization-Hint:  spaced  "),
    ])
    func fieldLines(line: String, expected: String) {
        let head = RecordedHead(raw: Array("HTTP/1.1 200 OK\r\n\(line)\r\n\r\n".utf8), redacted: WARCRecordBuilder.defaultRedactedHeaders)
        #expect(String(decoding: head.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\n\(expected)\r\n\r\n")
    }

    @Test func anOptedInHeaderStaysAndAConfiguredOneIsRedacted() {
        let raw = Array("GET / HTTP/1.1\r\nCookie: a=1\r\nX-Api-Key: k\r\n\r\n".utf8)
        let head = RecordedHead(raw: raw, redacted: ["x-api-key"])
        #expect(String(decoding: head.bytes, as: UTF8.self) == "GET / HTTP/1.1\r\nCookie: a=1\r\nX-Api-Key: REDACTED\r\n\r\n")
    }

    @Test func bareLineFeedsAndAMissingEmptyLineAreCompleted() {
        let head = RecordedHead(raw: Array("HTTP/1.1 200 OK\nA: 1\n".utf8), redacted: [])
        #expect(String(decoding: head.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\nA: 1\r\n\r\n")
        #expect(head.contentType == nil && head.status == 200)
    }

    @Test func theTypeAndEncodingAreReadOnTheWay() {
        let head = RecordedHead(raw: Array("HTTP/2 200 \r\ncontent-type:  text/html; charset=utf-8 \r\nContent-Encoding: br\r\n\r\n".utf8), redacted: [])
        #expect(head.contentType == "text/html; charset=utf-8" && head.contentEncoding == "br")
    }

    @Test func anEmptyHeadStaysEmptyButTerminated() {
        #expect(RecordedHead(raw: [], redacted: []).bytes == [0x0D, 0x0A])
    }
}
