import Testing
@testable import MirrorServer

/// What feeding a case should produce.
enum ParserExpectation: Sendable, Equatable {
    /// Requests, each summarised as `METHOD path query? keep|close`.
    case requests([String])
    /// Zero or more requests, then a failure with this status.
    case failure(requests: [String], status: Int)
    /// Nothing yet (more bytes needed).
    case incomplete
}

struct ParserCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let expected: ParserExpectation
    var limits = HTTPParserLimits()
    var testDescription: String { name }
}

private let host = "Host: a\r\n"
private let longLine = "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n" + host + "\r\n"
private let manyHeaders = "GET / HTTP/1.1\r\n" + host + (0..<101).map { "X-\($0): v\r\n" }.joined() + "\r\n"
private let bigHeaders = "GET / HTTP/1.1\r\n" + host + (0..<40).map { "X-\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined() + "\r\n"

let parserCases: [ParserCase] = [
    ParserCase(name: "simple GET", input: "GET / HTTP/1.1\r\n\(host)\r\n", expected: .requests(["GET / keep"])),
    ParserCase(name: "HEAD", input: "HEAD /a HTTP/1.1\r\n\(host)\r\n", expected: .requests(["HEAD /a keep"])),
    ParserCase(name: "query split", input: "GET /a?b=c&d HTTP/1.1\r\n\(host)\r\n", expected: .requests(["GET /a ?b=c&d keep"])),
    ParserCase(name: "HTTP/1.0 defaults to close", input: "GET / HTTP/1.0\r\n\r\n", expected: .requests(["GET / close"])),
    ParserCase(name: "HTTP/1.0 keep-alive", input: "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", expected: .requests(["GET / keep"])),
    ParserCase(name: "HTTP/1.1 Connection: close", input: "GET / HTTP/1.1\r\n\(host)Connection: close\r\n\r\n", expected: .requests(["GET / close"])),
    ParserCase(name: "Connection list with close", input: "GET / HTTP/1.1\r\n\(host)Connection: foo, CLOSE\r\n\r\n", expected: .requests(["GET / close"])),
    ParserCase(name: "three pipelined", input: "GET /1 HTTP/1.1\r\n\(host)\r\nGET /2 HTTP/1.1\r\n\(host)\r\nHEAD /3 HTTP/1.1\r\n\(host)\r\n",
               expected: .requests(["GET /1 keep", "GET /2 keep", "HEAD /3 keep"])),
    ParserCase(name: "nothing after a close request", input: "GET /1 HTTP/1.1\r\n\(host)Connection: close\r\n\r\nGET /2 HTTP/1.1\r\n\(host)\r\n",
               expected: .requests(["GET /1 close"])),
    ParserCase(name: "bare LF tolerated", input: "GET / HTTP/1.1\n\(host.replacingOccurrences(of: "\r", with: ""))\n", expected: .requests(["GET / keep"])),
    ParserCase(name: "leading empty line ignored", input: "\r\nGET / HTTP/1.1\r\n\(host)\r\n", expected: .requests(["GET / keep"])),
    ParserCase(name: "absolute-form uses the path", input: "GET http://other.example/p/q?x=1 HTTP/1.1\r\n\(host)\r\n", expected: .requests(["GET /p/q ?x=1 keep"])),
    ParserCase(name: "absolute-form without path", input: "GET https://other.example HTTP/1.1\r\n\(host)\r\n", expected: .requests(["GET / keep"])),
    ParserCase(name: "header value OWS trimmed", input: "GET / HTTP/1.1\r\nHost:   a  \r\n\r\n", expected: .requests(["GET / keep"])),
    ParserCase(name: "POST with small body consumed", input: "POST /f HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nhelloGET /n HTTP/1.1\r\n\(host)\r\n",
               expected: .requests(["POST /f keep", "GET /n keep"])),
    ParserCase(name: "POST with big body closes", input: "POST /f HTTP/1.1\r\n\(host)Content-Length: 999999\r\n\r\nxx",
               expected: .requests(["POST /f close"])),
    ParserCase(name: "chunked POST closes", input: "POST /f HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
               expected: .requests(["POST /f close"])),
    ParserCase(name: "OPTIONS *", input: "OPTIONS * HTTP/1.1\r\n\(host)\r\n", expected: .requests(["OPTIONS * keep"])),
    ParserCase(name: "GET with Content-Length 0", input: "GET / HTTP/1.1\r\n\(host)Content-Length: 0\r\n\r\n", expected: .requests(["GET / keep"])),
    ParserCase(name: "query split at the first ?", input: "GET /a?b?c HTTP/1.1\r\n\(host)\r\n", expected: .requests(["GET /a ?b?c keep"])),
    ParserCase(name: "empty query", input: "GET /a? HTTP/1.1\r\n\(host)\r\n", expected: .requests(["GET /a ? keep"])),
    ParserCase(name: "Connection keep-alive and close: close wins", input: "GET / HTTP/1.0\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n",
               expected: .requests(["GET / close"])),
    ParserCase(name: "header names any case", input: "POST /f HTTP/1.1\r\nHOST: a\r\ncontent-LENGTH: 2\r\n\r\nokGET / HTTP/1.1\r\nhost: a\r\n\r\n",
               expected: .requests(["POST /f keep", "GET / keep"])),
    ParserCase(name: "incomplete head", input: "GET / HTTP/1.1\r\n\(host)", expected: .incomplete),
    ParserCase(name: "incomplete body", input: "POST / HTTP/1.1\r\n\(host)Content-Length: 10\r\n\r\nabc", expected: .incomplete),
    // Failures
    ParserCase(name: "HTTP/0.9", input: "GET /\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "HTTP/2.0 unsupported", input: "GET / HTTP/2.0\r\n\(host)\r\n", expected: .failure(requests: [], status: 505)),
    ParserCase(name: "lowercase version", input: "GET / http/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "double space", input: "GET  / HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "method with slash", input: "GE/T / HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "method with NUL", input: "G\u{0}T / HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "target with control char", input: "GET /a\u{1}b HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "target with non-ASCII", input: "GET /é HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "target with fragment", input: "GET /a#b HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "trailing space after version", input: "GET / HTTP/1.1 \r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "empty method", input: " / HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "Host with slash", input: "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "relative target", input: "GET a/b HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "asterisk with GET", input: "GET * HTTP/1.1\r\n\(host)\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "missing Host on 1.1", input: "GET / HTTP/1.1\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "duplicate Host", input: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "Host with space", input: "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "obs-fold", input: "GET / HTTP/1.1\r\n\(host)X-A: 1\r\n  continued\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "space before colon", input: "GET / HTTP/1.1\r\n\(host)X-A : 1\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "header without colon", input: "GET / HTTP/1.1\r\n\(host)garbage\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "NUL in header value", input: "GET / HTTP/1.1\r\n\(host)X-A: a\u{0}b\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "bare CR in header", input: "GET / HTTP/1.1\r\n\(host)X-A: a\rb\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "GET with body", input: "GET / HTTP/1.1\r\n\(host)Content-Length: 3\r\n\r\nabc", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "GET chunked", input: "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "CL and TE", input: "POST / HTTP/1.1\r\n\(host)Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "differing Content-Length", input: "POST / HTTP/1.1\r\n\(host)Content-Length: 3\r\nContent-Length: 4\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "negative Content-Length", input: "POST / HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n", expected: .failure(requests: [], status: 400)),
    ParserCase(name: "request line too long", input: longLine, expected: .failure(requests: [], status: 414)),
    ParserCase(name: "too many headers", input: manyHeaders, expected: .failure(requests: [], status: 431)),
    ParserCase(name: "header section too large", input: bigHeaders, expected: .failure(requests: [], status: 431)),
    ParserCase(name: "good request then bad one", input: "GET /ok HTTP/1.1\r\n\(host)\r\nBAD\r\n\r\n", expected: .failure(requests: ["GET /ok keep"], status: 400)),
]

/// Feeds `input` in pieces of `chunk` bytes (0: all at once) and collects what comes out.
func runParser(_ input: [UInt8], chunk: Int, limits: HTTPParserLimits) -> ParserExpectation {
    var parser = HTTPRequestParser(limits: limits)
    var requests: [String] = []
    let pieces: [ArraySlice<UInt8>] = chunk == 0 ? [input[...]] : stride(from: 0, to: input.count, by: chunk).map {
        input[$0..<min($0 + chunk, input.count)]
    }
    for piece in pieces {
        parser.feed(piece)
        while let event = parser.next() {
            switch event {
            case .request(let head):
                let query = head.query.map { " ?" + $0 } ?? ""
                requests.append("\(head.method) \(head.path)\(query) \(head.keepAlive ? "keep" : "close")")
            case .failure(let error):
                return .failure(requests: requests, status: error.status)
            }
        }
    }
    return requests.isEmpty ? .incomplete : .requests(requests)
}

@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    @Test("whole buffer", arguments: parserCases)
    func wholeBuffer(_ testCase: ParserCase) {
        #expect(runParser(Array(testCase.input.utf8), chunk: 0, limits: testCase.limits) == testCase.expected)
    }

    @Test("one byte at a time", arguments: parserCases)
    func byteAtATime(_ testCase: ParserCase) {
        #expect(runParser(Array(testCase.input.utf8), chunk: 1, limits: testCase.limits) == testCase.expected)
    }

    @Test("seven bytes at a time", arguments: parserCases)
    func sevenAtATime(_ testCase: ParserCase) {
        #expect(runParser(Array(testCase.input.utf8), chunk: 7, limits: testCase.limits) == testCase.expected)
    }

    @Test("an over-long request line fails before its end arrives")
    func earlyLineLimit() {
        var parser = HTTPRequestParser()
        parser.feed(Array(("GET /" + String(repeating: "a", count: 9000)).utf8))
        #expect(parser.next() == .failure(.requestLineTooLong(limit: 8192)))
        #expect(parser.isFinished)
    }

    @Test("headers are kept in order and looked up case-insensitively")
    func headerLookup() throws {
        var parser = HTTPRequestParser()
        parser.feed(Array("GET / HTTP/1.1\r\nhost: a\r\nX-Multi: 1\r\nx-multi: 2\r\n\r\n".utf8))
        guard case .request(let head)? = parser.next() else {
            Issue.record("no request")
            return
        }
        #expect(head.headers.first("HOST") == "a")
        #expect(head.headers.values("X-MULTI") == ["1", "2"])
        #expect(!parser.hasPartialRequest)
    }

    @Test("request-line failures name their reason", arguments: [
        ("GET /x\r\n\r\n", HTTPParseError.missingVersion),
        ("GET /a#\u{1} HTTP/1.1\r\n", .invalidTarget(reason: "bytes outside visible ASCII")),
        ("GET /a#b HTTP/1.1\r\n", .invalidTarget(reason: "a fragment")),
        ("GET / HTTP/1.2\r\n", .unsupportedVersion(version: "HTTP/1.2")),
        ("GET / HTTP/1.1 x\r\n", .malformedRequestLine(reason: "expected method, target and version separated by single spaces")),
    ])
    func requestLineReasons(_ input: String, _ expected: HTTPParseError) {
        var parser = HTTPRequestParser()
        parser.feed(Array(input.utf8))
        #expect(parser.next() == .failure(expected))
    }

    @Test("partial request is reported for the header deadline")
    func partialFlag() {
        var parser = HTTPRequestParser()
        #expect(!parser.hasPartialRequest)
        parser.feed(Array("GE".utf8))
        #expect(parser.next() == nil)
        #expect(parser.hasPartialRequest)
    }
}
