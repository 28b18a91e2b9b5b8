/// One message from the browser, decoded from its JSON.
///
/// The DevTools protocol has two kinds: the reply to a command (it carries the command's
/// `id` and either a `result` or an `error`) and an event (a `method` with `params`). With
/// flattened sessions (`Target.attachToTarget` with `flatten: true`), both carry the
/// `sessionId` of the target they concern; browser-level messages have none.
enum DevToolsMessage: Sendable, Equatable {
    /// The answer to command `id`.
    case reply(id: Int, sessionID: String?, result: Result<JSONValue, DevToolsCommandError>)
    /// An event.
    case event(method: String, sessionID: String?, params: JSONValue)

    /// Why a message could not be decoded.
    enum DecodingError: Error, Equatable {
        case notJSON(JSONParseError)
        /// Valid JSON without the members of a reply or an event.
        case unexpectedShape
    }

    /// Decodes one message (the bytes between two NULs).
    static func decode(_ bytes: [UInt8]) throws(DecodingError) -> DevToolsMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .notJSON(error)
        }
        let sessionID = value["sessionId"]?.string
        if let id = value["id"]?.int {
            if let error = value["error"] {
                return .reply(id: id, sessionID: sessionID, result: .failure(DevToolsCommandError(
                    code: error["code"]?.int ?? 0, message: error["message"]?.string ?? "unknown error")))
            }
            return .reply(id: id, sessionID: sessionID, result: .success(value["result"] ?? .object([:])))
        }
        if let method = value["method"]?.string {
            return .event(method: method, sessionID: sessionID, params: value["params"] ?? .object([:]))
        }
        throw .unexpectedShape
    }
}

/// The browser refused a command (a JSON-RPC style `error` member).
struct DevToolsCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    var code: Int
    var message: String
    var description: String { "\(message) (\(code))" }
}

/// One command to the browser.
struct DevToolsCommand: Sendable, Equatable {
    var method: String
    var params: JSONValue
    /// The flattened session of the target it goes to; nil for the browser itself.
    var sessionID: String?

    init(_ method: String, _ params: JSONValue = .object([:]), session sessionID: String? = nil) {
        self.method = method
        self.params = params
        self.sessionID = sessionID
    }

    /// The message with its `id`, ended by the NUL the pipe expects.
    func frame(id: Int) -> [UInt8] {
        var members: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": params]
        if let sessionID { members["sessionId"] = .string(sessionID) }
        var bytes = JSONValue.object(members).encoded
        bytes.append(0)
        return bytes
    }
}
