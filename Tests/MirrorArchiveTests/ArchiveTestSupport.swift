import Foundation
import MirrorCore
import MirrorHTTP
@testable import MirrorArchive

/// Captures as the engine makes them, for record and file tests.
enum SampleCaptures {
    static let date = Date(timeIntervalSince1970: 1_764_633_600.25)  // 2025-12-02T00:00:00.25Z

    static func requestHead(_ path: String = "/a.html", version: String = "HTTP/2", extra: String = "") -> [UInt8] {
        Array("GET \(path) \(version)\r\nHost: localhost:8443\r\nuser-agent: mtls-mirror/0.1.0\r\naccept: */*\r\n\(extra)\r\n".utf8)
    }

    static func capture(
        url: String = "https://localhost:8443/a.html", status: Int = 200, body: [UInt8] = Array("<p>hello</p>".utf8),
        responseHead: String? = nil, httpVersion: String = "2", truncation: HTTPCapture.Truncation? = nil,
        requestExtra: String = "", date: Date = SampleCaptures.date
    ) -> HTTPCapture {
        let head = responseHead ?? "HTTP/2 \(status) \r\ncontent-type: text/html\r\ncontent-length: \(body.count)\r\n\r\n"
        return HTTPCapture(
            url: url, date: date, requestHead: requestHead(extra: requestExtra), responseHead: Array(head.utf8),
            payload: .memory(body), payloadSHA256: SHA256Digest.hex(body), status: status, httpVersion: httpVersion,
            remoteIP: "127.0.0.1", tlsVersion: "TLSv1.3", truncation: truncation)
    }
}

/// Decompresses one whole gzip member with the reader under test's own counterpart.
func decompressMembers(_ path: String) throws -> [[UInt8]] {
    let reader = try GzipMemberReader(path: path)
    var members: [[UInt8]] = []
    while case .member(let member) = try reader.next(keep: nil) { members.append(member.prefix) }
    return members
}
