import Foundation

/// A `Fetch.requestPaused` event, decoded (the DevTools protocol's `Fetch.pdl`).
///
/// With the pattern `*` at the `Request` stage, every request a page makes pauses here
/// before it is sent, and stays paused until `Fetch.fulfillRequest` or `Fetch.failRequest`
/// names its `requestId` (or the page goes away).
struct PausedRequest: Sendable, Equatable {
    /// The id to answer with.
    var requestID: String
    /// The session the event came on (a tab's, or a worker's attached to it).
    var sessionID: String?
    var url: String
    var method: String
    var headers: [HeaderField]
    var body: [UInt8]?
    var resourceType: String
    /// The frame that made the request: for a page target, the main frame's id is the
    /// target's id.
    var frameID: String
    /// Set when the request follows a redirect the browser was given.
    var redirectedRequestID: String?

    /// Decodes the event's params; nil when they lack a request id or URL.
    init?(params: JSONValue, sessionID: String?) {
        guard let requestID = params["requestId"]?.string, let request = params["request"],
              let url = request["url"]?.string else { return nil }
        self.requestID = requestID
        self.sessionID = sessionID
        self.url = url
        method = request["method"]?.string ?? "GET"
        var headers: [HeaderField] = []
        if let members = request["headers"]?.object {
            for key in members.keys.sorted() {
                if let value = members[key]?.string { headers.append(HeaderField(key, value)) }
            }
        }
        self.headers = headers
        if let entries = request["postDataEntries"]?.array, !entries.isEmpty {
            var bytes: [UInt8] = []
            for entry in entries {
                if let text = entry["bytes"]?.string, let data = Data(base64Encoded: text) { bytes.append(contentsOf: data) }
            }
            body = bytes
        } else if let text = request["postData"]?.string {
            body = Array(text.utf8)
        } else {
            body = nil
        }
        resourceType = params["resourceType"]?.string ?? "Other"
        frameID = params["frameId"]?.string ?? ""
        redirectedRequestID = params["redirectedRequestId"]?.string
    }
}

extension DevToolsCommand {
    /// Response headers the browser never gets from us: the body is already decoded
    /// (`Content-Encoding`, `Content-Length`, `Transfer-Encoding`), hop-by-hop fields, and
    /// caching: every response is `Cache-Control: no-store`, so that each page asks for
    /// every resource it uses and the record of what a page depended on is complete.
    static let withheldResponseHeaders: Set<String> = [
        "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection",
        "cache-control", "expires", "pragma", "age", "strict-transport-security", "alt-svc", "public-key-pins",
        "etag", "upgrade", "trailer", "te",
    ]

    /// `Fetch.fulfillRequest`: the browser receives this response for a paused request.
    static func fulfil(_ paused: PausedRequest, status: Int, headers: [HeaderField], body: [UInt8]) -> DevToolsCommand {
        var fields: [JSONValue] = []
        for field in headers where !withheldResponseHeaders.contains(field.name.lowercased()) {
            fields.append(["name": .string(field.name), "value": .string(field.value)])
        }
        fields.append(["name": "Cache-Control", "value": "no-store"])
        let code = (100...599).contains(status) ? status : 502
        return DevToolsCommand("Fetch.fulfillRequest", [
            "requestId": .string(paused.requestID), "responseCode": .number(Double(code)),
            "responseHeaders": .array(fields), "body": .string(Data(body).base64EncodedString()),
        ], session: paused.sessionID)
    }

    /// `Fetch.failRequest`: the paused request fails in the page with `reason`.
    static func fail(_ paused: PausedRequest, reason: InterceptedAnswer.FailureReason) -> DevToolsCommand {
        DevToolsCommand("Fetch.failRequest", ["requestId": .string(paused.requestID), "errorReason": .string(reason.rawValue)],
                        session: paused.sessionID)
    }
}
