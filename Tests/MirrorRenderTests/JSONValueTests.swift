import Testing
@testable import MirrorRender

@Suite struct JSONValueTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        (" false ", .bool(false)),
        ("0", .number(0)),
        ("-12.5e1", .number(-125)),
        ("1E-2", .number(0.01)),
        (#""a\"b\\c\/d\n\t""#, .string("a\"b\\c/d\n\t")),
        (#""\u00e9\u20ac""#, .string("é€")),
        (#""\ud83d\ude00""#, .string("😀")),
        (#""\ud83d""#, .string("\u{FFFD}")),
        ("\"é\"", .string("é")),
        ("[]", .array([])),
        ("[1, [2, {}]]", .array([.number(1), .array([.number(2), .object([:])])])),
        (#"{"a": {"b": [true, null]}, "c": "d"}"#, .object(["a": .object(["b": .array([.bool(true), .null])]), "c": .string("d")])),
    ])
    func parses(text: String, value: JSONValue) throws {
        #expect(try JSONValue.parse(Array(text.utf8)) == value)
    }

    @Test(arguments: ["", "tru", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"abc", "\"a\u{01}b\"", "[1] 2", "{\"a\":1,}", "\"\\x\""])
    func rejects(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func rejectsNestingBeyondTheLimit() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONValue.parse(Array(fine.utf8))) != nil)
    }

    @Test(arguments: [
        JSONValue.object(["id": 7, "method": "Fetch.enable", "params": ["patterns": [["urlPattern": "*"]]]]),
        .string("quote \" backslash \\ newline \n control \u{07} unicode é 😀"),
        .array([.number(1.5), .number(-3), .bool(false), .null]),
    ])
    func encodingRoundTrips(value: JSONValue) throws {
        #expect(try JSONValue.parse(value.encoded) == value)
    }

    @Test func encodesWholeNumbersWithoutFraction() {
        #expect(String(decoding: JSONValue.number(42).encoded, as: UTF8.self) == "42")
        #expect(String(decoding: JSONValue.number(.nan).encoded, as: UTF8.self) == "null")
        #expect(String(decoding: JSONValue.object(["b": 1, "a": 2]).encoded, as: UTF8.self) == #"{"a":2,"b":1}"#)
    }
}

@Suite struct DevToolsFramingTests {
    static let messages: [[UInt8]] = [
        Array(#"{"id":1,"result":{}}"#.utf8),
        Array(#"{"method":"Page.loadEventFired","params":{"timestamp":1}}"#.utf8),
        Array(#"{"id":2,"error":{"code":-32000,"message":"No target"},"sessionId":"S"}"#.utf8),
    ]

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func anyChunkingGivesTheSameMessages(chunk: Int) {
        let stream: [UInt8] = Self.messages.flatMap { $0 + [UInt8(0)] }
        var framer = DevToolsFramer()
        var found: [[UInt8]] = []
        var index = 0
        while index < stream.count {
            let end = min(stream.count, index + chunk)
            for output in framer.feed(stream[index..<end]) {
                if case .message(let bytes) = output { found.append(bytes) }
            }
            index = end
        }
        #expect(found == Self.messages)
        #expect(framer.pendingCount == 0)
    }

    @Test func anOversizedMessageIsReported() {
        var framer = DevToolsFramer(maximumMessageBytes: 10)
        #expect(framer.feed(Array("0123456789ABC".utf8)) == [.oversized(bytes: 13)])
    }

    @Test func decodesRepliesErrorsAndEvents() throws {
        #expect(try DevToolsMessage.decode(Self.messages[0]) == .reply(id: 1, sessionID: nil, result: .success(.object([:]))))
        #expect(try DevToolsMessage.decode(Self.messages[1])
            == .event(method: "Page.loadEventFired", sessionID: nil, params: ["timestamp": 1]))
        #expect(try DevToolsMessage.decode(Self.messages[2])
            == .reply(id: 2, sessionID: "S", result: .failure(DevToolsCommandError(code: -32000, message: "No target"))))
        #expect(throws: DevToolsMessage.DecodingError.unexpectedShape) { try DevToolsMessage.decode(Array("{}".utf8)) }
    }

    @Test func commandsAreFramedWithTheirIDAndSession() throws {
        let frame = DevToolsCommand("Page.navigate", ["url": "https://a.test/"], session: "S1").frame(id: 9)
        #expect(frame.last == 0)
        let value = try JSONValue.parse(frame.dropLast())
        #expect(value == ["id": 9, "method": "Page.navigate", "params": ["url": "https://a.test/"], "sessionId": "S1"])
    }

    @Test func fulfilWithholdsEncodingLengthAndCaching() throws {
        let paused = PausedRequest(params: ["requestId": "R", "request": ["url": "https://a.test/x", "method": "GET", "headers": [:]],
                                            "frameId": "F", "resourceType": "Script"], sessionID: "S")!
        let command = DevToolsCommand.fulfil(paused, status: 200, headers: [
            HeaderField("Content-Type", "text/javascript"), HeaderField("Content-Encoding", "gzip"),
            HeaderField("content-length", "12"), HeaderField("Cache-Control", "max-age=600"), HeaderField("Set-Cookie", "a=b"),
        ], body: Array("hello".utf8))
        let names = command.params["responseHeaders"]?.array?.compactMap { $0["name"]?.string } ?? []
        #expect(names == ["Content-Type", "Set-Cookie", "Cache-Control"])
        #expect(command.params["responseHeaders"]?.array?.last?["value"] == "no-store")
        #expect(command.params["body"] == "aGVsbG8=")
        #expect(command.sessionID == "S")
    }

    @Test func pausedRequestsCarryTheirPostBody() {
        let paused = PausedRequest(params: [
            "requestId": "R", "frameId": "F", "resourceType": "Fetch",
            "request": ["url": "https://a.test/api", "method": "POST", "headers": ["Content-Type": "application/json"],
                        "hasPostData": true, "postDataEntries": [["bytes": "eyJxIjox"], ["bytes": "fQ=="]]],
        ], sessionID: "S")
        #expect(paused?.body == Array(#"{"q":1}"#.utf8))
        #expect(paused?.headers == [HeaderField("Content-Type", "application/json")])
        #expect(paused?.method == "POST")
    }
}
