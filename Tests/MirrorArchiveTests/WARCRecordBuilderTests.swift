import Foundation
import MirrorCore
import MirrorHTTP
import Testing
@testable import MirrorArchive

/// Records built as values: the fields WARC 1.1 requires, the digests of the bytes written, the
/// request/response link, and when a capture becomes a revisit.
@Suite struct WARCRecordBuilderTests {
    let builder = WARCRecordBuilder(warcinfoID: "<urn:uuid:00000000-0000-4000-8000-000000000001>")

    static func isRecordID(_ text: String?) -> Bool {
        guard let text else { return false }
        return text.range(of: #"^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$"#,
                          options: .regularExpression) != nil
    }

    @Test func warcinfoNamesTheFileAndDigestsItsBlock() {
        var info = WARCFields()
        info.append("software", "mtls-mirror/0.1.0")
        info.append("format", "WARC File Format 1.1")
        let record = builder.warcinfo(filename: "site-1.warc.gz", date: SampleCaptures.date, info: info)
        #expect(record.type == .warcinfo)
        #expect(record.fields["WARC-Type"] == "warcinfo")
        #expect(Self.isRecordID(record.fields["WARC-Record-ID"]))
        #expect(record.fields["WARC-Date"] == "2025-12-02T00:00:00.250000Z")
        #expect(record.fields["WARC-Filename"] == "site-1.warc.gz")
        #expect(record.fields["Content-Type"] == "application/warc-fields")
        let block = Array("software: mtls-mirror/0.1.0\r\nformat: WARC File Format 1.1\r\n".utf8)
        #expect(record.payload == .memory(block))
        #expect(record.fields["WARC-Block-Digest"] == "sha256:" + SHA256Digest.hex(block))
        let header = String(decoding: record.headerBytes, as: UTF8.self)
        #expect(header.hasPrefix("WARC/1.1\r\nWARC-Type: warcinfo\r\n"))
        #expect(header.hasSuffix("Content-Length: \(block.count)\r\n\r\n"))
    }

    @Test func anExchangeIsARequestAndAResponseLinkedByConcurrentTo() throws {
        let body = Array("<p>hello</p>".utf8)
        let exchange = try builder.exchange(SampleCaptures.capture(body: body), previous: nil)
        let request = exchange.request, response = exchange.response
        #expect(request.type == .request && response.type == .response && exchange.profile == nil)
        #expect(request.fields["WARC-Concurrent-To"] == response.id)
        #expect(Self.isRecordID(request.id) && Self.isRecordID(response.id) && request.id != response.id)
        for record in [request, response] {
            #expect(record.fields["WARC-Date"] == "2025-12-02T00:00:00.250000Z")
            #expect(record.fields["WARC-Target-URI"] == "https://localhost:8443/a.html")
            #expect(record.fields["WARC-IP-Address"] == "127.0.0.1")
            #expect(record.fields["WARC-Warcinfo-ID"] == "<urn:uuid:00000000-0000-4000-8000-000000000001>")
            #expect(record.fields.values("WARC-Protocol") == ["h2", "tls/1.3"])
        }
        #expect(response.fields["Content-Type"] == "application/http;msgtype=response")
        #expect(request.fields["Content-Type"] == "application/http;msgtype=request")
        let head = Array("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: \(body.count)\r\n\r\n".utf8)
        #expect(response.head == head)
        #expect(response.payload == .memory(body))
        #expect(response.blockLength == Int64(head.count + body.count))
        #expect(response.fields["WARC-Payload-Digest"] == "sha256:" + SHA256Digest.hex(body))
        #expect(response.fields["WARC-Block-Digest"] == "sha256:" + SHA256Digest.hex(head + body))
        #expect(request.fields["WARC-Block-Digest"] == "sha256:" + SHA256Digest.hex(request.head))
        #expect(String(decoding: request.head, as: UTF8.self).hasPrefix("GET /a.html HTTP/1.1\r\nHost: localhost:8443\r\n"))
        #expect(exchange.reference == CaptureReference(url: "https://localhost:8443/a.html", date: "2025-12-02T00:00:00.250000Z",
                                                       recordID: response.id!, payloadDigest: "sha256:" + SHA256Digest.hex(body)))
    }

    @Test func aRequestBodyIsTheRequestRecordsPayload() throws {
        var capture = SampleCaptures.capture()
        capture.method = "POST"
        capture.requestHead = Array("POST /search HTTP/1.1\r\nHost: localhost:8443\r\nContent-Length: 5\r\n\r\n".utf8)
        capture.requestBody = Array("q=abc".utf8)
        let request = try builder.exchange(capture, previous: nil).request
        #expect(request.payload == .memory(Array("q=abc".utf8)))
        #expect(request.fields["WARC-Payload-Digest"] == "sha256:" + SHA256Digest.hex(Array("q=abc".utf8)))
        #expect(request.fields["WARC-Block-Digest"] == "sha256:" + SHA256Digest.hex(capture.requestHead + Array("q=abc".utf8)))
    }

    @Test func credentialsNeverReachARecord() throws {
        let capture = SampleCaptures.capture(
            responseHead: "HTTP/1.1 200 OK\r\nSet-Cookie: session=topsecret\r\nContent-Type: text/plain\r\n\r\n",
            httpVersion: "1.1", requestExtra: "Authorization: Bearer tok-en\r\nCookie: session=topsecret\r\n")
        let exchange = try builder.exchange(capture, previous: nil)
        for record in [exchange.request, exchange.response] {
            let text = String(decoding: record.headerBytes + record.head, as: UTF8.self)
            #expect(!text.contains("topsecret") && !text.contains("tok-en"), "\(text)")
        }
        #expect(String(decoding: exchange.request.head, as: UTF8.self).contains("Authorization: REDACTED\r\nCookie: REDACTED\r\n"))
        #expect(String(decoding: exchange.response.head, as: UTF8.self).contains("Set-Cookie: REDACTED\r\n"))
        #expect(exchange.response.fields.values("WARC-Protocol") == ["http/1.1", "tls/1.3"])
    }

    @Test func aNotModifiedAnswerIsAServerNotModifiedRevisitOfTheLastCapture() throws {
        let previous = CaptureReference(url: "https://localhost:8443/a.html", date: "2025-11-01T00:00:00.000000Z",
                                        recordID: "<urn:uuid:11111111-1111-4111-8111-111111111111>", payloadDigest: "sha256:abc")
        let capture = SampleCaptures.capture(status: 304, body: [], responseHead: "HTTP/2 304 \r\netag: \"x\"\r\n\r\n")
        let exchange = try builder.exchange(capture, previous: previous)
        let revisit = exchange.response
        #expect(revisit.type == .revisit && exchange.profile == .serverNotModified)
        #expect(revisit.fields["WARC-Profile"] == "http://netpreserve.org/warc/1.1/revisit/server-not-modified")
        #expect(revisit.fields["WARC-Refers-To"] == previous.recordID)
        #expect(revisit.fields["WARC-Refers-To-Target-URI"] == previous.url)
        #expect(revisit.fields["WARC-Refers-To-Date"] == previous.date)
        #expect(revisit.fields["WARC-Payload-Digest"] == "sha256:abc")
        #expect(revisit.head == Array("HTTP/1.1 304 Not Modified\r\netag: \"x\"\r\n\r\n".utf8))
        #expect(revisit.payload == .memory([]))
        #expect(revisit.fields["WARC-Block-Digest"] == "sha256:" + SHA256Digest.hex(revisit.head))
        #expect(exchange.reference == previous, "a revisit keeps pointing at the capture that holds the payload")
        #expect(exchange.request.fields["WARC-Concurrent-To"] == revisit.id)
    }

    @Test func theSameErrorPageAgainIsARevisitThatKeepsItsStatus() throws {
        let body = Array("<p>not here</p>".utf8)
        let previous = CaptureReference(url: "https://localhost:8443/a.html", date: "2025-11-01T00:00:00.000000Z",
                                        recordID: "<urn:uuid:11111111-1111-4111-8111-111111111111>",
                                        payloadDigest: "sha256:" + SHA256Digest.hex(body))
        let exchange = try builder.exchange(SampleCaptures.capture(status: 404, body: body), previous: previous)
        #expect(exchange.profile == .identicalPayloadDigest)
        #expect(String(decoding: exchange.response.head, as: UTF8.self).hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test func theSamePayloadAgainIsAnIdenticalPayloadDigestRevisit() throws {
        let body = Array("<p>same</p>".utf8)
        let previous = CaptureReference(url: "https://localhost:8443/a.html", date: "2025-11-01T00:00:00.000000Z",
                                        recordID: "<urn:uuid:11111111-1111-4111-8111-111111111111>",
                                        payloadDigest: "sha256:" + SHA256Digest.hex(body))
        let exchange = try builder.exchange(SampleCaptures.capture(body: body), previous: previous)
        #expect(exchange.response.type == .revisit && exchange.profile == .identicalPayloadDigest)
        #expect(exchange.response.fields["WARC-Profile"] == "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")
        #expect(exchange.response.fields["WARC-Payload-Digest"] == previous.payloadDigest)
        #expect(exchange.response.fields["WARC-Refers-To-Target-URI"] == previous.url)
        #expect(exchange.response.fields["WARC-Refers-To-Date"] == previous.date)
        #expect(exchange.response.payload == .memory([]), "a revisit's block is the HTTP head alone")
        #expect(exchange.response.blockLength == Int64(exchange.response.head.count))
    }

    @Test(arguments: [
        (Array("<p>changed</p>".utf8), nil as HTTPCapture.Truncation?, 200),
        (Array("<p>same</p>".utf8), HTTPCapture.Truncation.disconnect, 200),
        (Array("<p>other</p>".utf8), nil, 404),
    ])
    func anythingElseIsAFullResponse(body: [UInt8], truncation: HTTPCapture.Truncation?, status: Int) throws {
        let previous = CaptureReference(url: "https://localhost:8443/a.html", date: "2025-11-01T00:00:00.000000Z",
                                        recordID: "<urn:uuid:11111111-1111-4111-8111-111111111111>",
                                        payloadDigest: "sha256:" + SHA256Digest.hex(Array("<p>same</p>".utf8)))
        let exchange = try builder.exchange(SampleCaptures.capture(status: status, body: body, truncation: truncation), previous: previous)
        #expect(exchange.response.type == .response && exchange.profile == nil)
        #expect(exchange.response.payload == .memory(body))
        #expect(exchange.response.fields["WARC-Truncated"] == truncation?.rawValue)
        #expect(exchange.response.fields["WARC-Profile"] == nil && exchange.response.fields["WARC-Refers-To"] == nil)
        if truncation != nil { #expect(exchange.reference == nil, "a truncated payload is never referred to") }
    }

    @Test func aSpooledPayloadIsDigestedFromItsFile() throws {
        let folder = try TemporaryFolderForTests()
        var body = [UInt8](repeating: 0, count: 700_000)
        for index in body.indices { body[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
        let path = folder.path + "/spool"
        _ = FileManager.default.createFile(atPath: path, contents: Data(body))
        var capture = SampleCaptures.capture(body: body)
        capture.payload = .file(path: path, length: Int64(body.count))
        let exchange = try builder.exchange(capture, previous: nil)
        #expect(exchange.response.fields["WARC-Block-Digest"] == "sha256:" + SHA256Digest.hex(exchange.response.head + body))
        capture.payload = .file(path: path, length: Int64(body.count + 1))
        #expect(throws: ArchiveError.self) { try builder.exchange(capture, previous: nil) }
    }

    @Test func fieldValuesCannotStartAFieldOfTheirOwn() {
        var fields = WARCFields()
        fields.append("WARC-Target-URI", "https://a.example/x\r\nWARC-Type: resource")
        #expect(String(decoding: fields.serialized, as: UTF8.self) == "WARC-Target-URI: https://a.example/x  WARC-Type: resource\r\n")
        #expect(fields["warc-type"] == nil)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000000Z", "19700101000000"),
        (1_764_633_600.999_999_5, "2025-12-02T00:00:00.999999Z", "20251202000000"),
        (4_102_444_799.5, "2099-12-31T23:59:59.500000Z", "20991231235959"),
    ])
    func dates(seconds: Double, warcDate: String, timestamp: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(WARCDate.string(date) == warcDate)
        #expect(WARCDate.timestamp(date) == timestamp)
        #expect(WARCDate.timestamp(ofWARCDate: warcDate) == timestamp)
        #expect(WARCDate.parseTimestamp(timestamp).map(WARCDate.timestamp) == timestamp)
    }

    @Test func partialTimestampsCountFromTheStartOfThePeriod() {
        #expect(WARCDate.parseTimestamp("2025").map(WARCDate.timestamp) == "20250101000000")
        #expect(WARCDate.parseTimestamp("202512021530").map(WARCDate.timestamp) == "20251202153000")
        #expect(WARCDate.parseTimestamp("20251302") == nil)
        #expect(WARCDate.parseTimestamp("abc") == nil)
        #expect(WARCDate.parseTimestamp("202") == nil)
    }
}

/// A private scratch folder for one test.
final class TemporaryFolderForTests {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "/mirrorarchive-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
