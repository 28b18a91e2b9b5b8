import Foundation
import MirrorRender

/// A request handler for tests: answers from a table of URL → response, records every request
/// it saw, and refuses anything else (as the crawler refuses what is out of scope).
final class StaticHandler: RenderRequestHandler, @unchecked Sendable {
    struct Response {
        var status = 200
        var type: String
        var body: [UInt8]
        var delay: Double = 0
    }

    private let lock = NSLock()
    private var table: [String: Response]
    private var seen: [InterceptedRequest] = []

    init(_ table: [String: Response]) {
        self.table = table
    }

    static func html(_ text: String) -> Response { Response(type: "text/html; charset=utf-8", body: Array(text.utf8)) }
    static func script(_ text: String) -> Response { Response(type: "text/javascript", body: Array(text.utf8)) }
    static func json(_ text: String, delay: Double = 0) -> Response {
        Response(type: "application/json", body: Array(text.utf8), delay: delay)
    }

    var requests: [InterceptedRequest] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }

    private func record(_ request: InterceptedRequest) -> Response? {
        lock.lock()
        defer { lock.unlock() }
        seen.append(request)
        return table[request.url]
    }

    func answer(_ request: InterceptedRequest) async -> InterceptedAnswer {
        let response = record(request)
        guard let response else { return .fail(.blockedByClient) }
        if response.delay > 0 { try? await Task.sleep(nanoseconds: UInt64(response.delay * 1e9)) }
        return .fulfil(status: response.status, headers: [HeaderField("Content-Type", response.type)], body: response.body)
    }
}
