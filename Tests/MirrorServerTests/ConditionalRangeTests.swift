import Testing
@testable import MirrorServer

struct PlanCase: Sendable, CustomTestStringConvertible {
    let name: String
    let method: String
    let headers: [String: String]
    let status: Int
    let body: Range<Int64>?
    var contentRange: String?
    var testDescription: String { name }
}

private let metadata = FileMetadata(size: 1000, modifiedSeconds: 784_111_777, modifiedNanoseconds: 5, inode: 42)
private let etag = metadata.entityTag
private let lastModified = HTTPDate.format(metadata.modifiedSeconds)

let planCases: [PlanCase] = [
    PlanCase(name: "plain GET", method: "GET", headers: [:], status: 200, body: 0..<1000),
    PlanCase(name: "plain HEAD has no body", method: "HEAD", headers: [:], status: 200, body: nil),
    PlanCase(name: "If-None-Match exact", method: "GET", headers: ["If-None-Match": etag], status: 304, body: nil),
    PlanCase(name: "If-None-Match weak", method: "GET", headers: ["If-None-Match": "W/" + etag], status: 304, body: nil),
    PlanCase(name: "If-None-Match list", method: "GET", headers: ["If-None-Match": "\"x\", \"a,b\", \(etag)"], status: 304, body: nil),
    PlanCase(name: "If-None-Match star", method: "GET", headers: ["If-None-Match": "*"], status: 304, body: nil),
    PlanCase(name: "If-None-Match other", method: "GET", headers: ["If-None-Match": "\"other\""], status: 200, body: 0..<1000),
    PlanCase(name: "If-None-Match beats If-Modified-Since", method: "GET",
             headers: ["If-None-Match": "\"other\"", "If-Modified-Since": lastModified], status: 200, body: 0..<1000),
    PlanCase(name: "If-Modified-Since equal", method: "GET", headers: ["If-Modified-Since": lastModified], status: 304, body: nil),
    PlanCase(name: "If-Modified-Since later", method: "HEAD", headers: ["If-Modified-Since": HTTPDate.format(784_111_999)], status: 304, body: nil),
    PlanCase(name: "If-Modified-Since earlier", method: "GET", headers: ["If-Modified-Since": HTTPDate.format(784_000_000)], status: 200, body: 0..<1000),
    PlanCase(name: "If-Modified-Since RFC 850", method: "GET", headers: ["If-Modified-Since": "Sunday, 06-Nov-94 08:49:37 GMT"], status: 304, body: nil),
    PlanCase(name: "If-Modified-Since asctime", method: "GET", headers: ["If-Modified-Since": "Sun Nov  6 08:49:37 1994"], status: 304, body: nil),
    PlanCase(name: "If-Modified-Since garbage ignored", method: "GET", headers: ["If-Modified-Since": "yesterday"], status: 200, body: 0..<1000),
    PlanCase(name: "range a-b", method: "GET", headers: ["Range": "bytes=0-99"], status: 206, body: 0..<100, contentRange: "bytes 0-99/1000"),
    PlanCase(name: "range a-", method: "GET", headers: ["Range": "bytes=900-"], status: 206, body: 900..<1000, contentRange: "bytes 900-999/1000"),
    PlanCase(name: "range -n", method: "GET", headers: ["Range": "bytes=-10"], status: 206, body: 990..<1000, contentRange: "bytes 990-999/1000"),
    PlanCase(name: "range suffix longer than file", method: "GET", headers: ["Range": "bytes=-5000"], status: 206, body: 0..<1000, contentRange: "bytes 0-999/1000"),
    PlanCase(name: "range end clamped", method: "GET", headers: ["Range": "bytes=500-5000"], status: 206, body: 500..<1000, contentRange: "bytes 500-999/1000"),
    PlanCase(name: "range unsatisfiable", method: "GET", headers: ["Range": "bytes=1000-"], status: 416, body: nil, contentRange: "bytes */1000"),
    PlanCase(name: "range -0 unsatisfiable", method: "GET", headers: ["Range": "bytes=-0"], status: 416, body: nil, contentRange: "bytes */1000"),
    PlanCase(name: "multiple ranges served whole", method: "GET", headers: ["Range": "bytes=0-1,5-6"], status: 200, body: 0..<1000),
    PlanCase(name: "bad unit ignored", method: "GET", headers: ["Range": "items=0-1"], status: 200, body: 0..<1000),
    PlanCase(name: "reversed range ignored", method: "GET", headers: ["Range": "bytes=9-1"], status: 200, body: 0..<1000),
    PlanCase(name: "HEAD ignores Range", method: "HEAD", headers: ["Range": "bytes=0-1"], status: 200, body: nil),
    PlanCase(name: "If-Range matching etag", method: "GET", headers: ["Range": "bytes=0-0", "If-Range": etag], status: 206, body: 0..<1, contentRange: "bytes 0-0/1000"),
    PlanCase(name: "If-Range stale etag", method: "GET", headers: ["Range": "bytes=0-0", "If-Range": "\"old\""], status: 200, body: 0..<1000),
    PlanCase(name: "If-Range weak etag never matches", method: "GET", headers: ["Range": "bytes=0-0", "If-Range": "W/" + etag], status: 200, body: 0..<1000),
    PlanCase(name: "If-Range matching date", method: "GET", headers: ["Range": "bytes=1-2", "If-Range": lastModified], status: 206, body: 1..<3, contentRange: "bytes 1-2/1000"),
    PlanCase(name: "If-Range other date", method: "GET", headers: ["Range": "bytes=1-2", "If-Range": HTTPDate.format(1)], status: 200, body: 0..<1000),
]

@Suite("Conditional and range requests")
struct ConditionalRangeTests {
    @Test("planner table", arguments: planCases)
    func plan(_ testCase: PlanCase) {
        let headers = HTTPHeaders(testCase.headers.map { ($0.key, $0.value) })
        let plan = FileResponsePlanner.plan(method: testCase.method, requestHeaders: headers, metadata: metadata, contentType: "text/plain")
        #expect(plan.status == testCase.status)
        #expect(plan.body == testCase.body)
        #expect(plan.headers.first("Content-Range") == testCase.contentRange)
        #expect(plan.headers.first("ETag") == etag)
        if plan.status == 304 { #expect(plan.headers.first("Content-Length") == nil) }
    }

    @Test("HTTP dates round-trip")
    func dates() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
    }

    @Test("mime.types parsing with built-in fallback")
    func mimeTypes() {
        let table = MIMETypes(mimeTypesFile: "# comment\nimage/x-test  tst tes\napplication/x-foo\tfoo # trailing\n")
        #expect(table.type(forFileName: "a/b.TST") == "image/x-test")
        #expect(table.type(forFileName: "x.foo") == "application/x-foo")
        #expect(table.type(forFileName: "index.html") == "text/html; charset=utf-8")
        #expect(table.type(forFileName: "noext") == MIMETypes.fallback)
        #expect(table.type(forFileName: ".hidden") == MIMETypes.fallback)
    }
}
