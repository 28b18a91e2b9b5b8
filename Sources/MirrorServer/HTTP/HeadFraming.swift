/// The header fields that decide a request's routing and framing, found in one pass.
///
/// ``HTTPRequestParser`` needs `Host` (how many, the first), the `Connection` options,
/// the `Content-Length` elements and whether `Transfer-Encoding` is present; collecting them
/// together keeps a typical request to a single walk over its fields. Names compare ASCII
/// case-insensitively; list values split as ``HTTPHeaders/listElements(_:)`` does.
struct HeadFraming {
    /// How many `Host` fields there were.
    var hostCount = 0
    /// The first `Host` value.
    var host: String?
    /// `Connection` lists `close`.
    var connectionClose = false
    /// `Connection` lists `keep-alive`.
    var connectionKeepAlive = false
    /// The elements of every `Content-Length` field, in order.
    var contentLengths: [String] = []
    /// A `Transfer-Encoding` field is present.
    var hasTransferEncoding = false

    /// Collects the framing fields of `headers`.
    /// - Parameter headers: a request's header fields.
    init(_ headers: HTTPHeaders) {
        for (name, value) in headers.fields {
            switch name.utf8.count {
            case 4 where name.asciiCaseInsensitiveEquals("Host"):
                hostCount += 1
                if host == nil { host = value }
            case 10 where name.asciiCaseInsensitiveEquals("Connection"):
                for element in Self.elements(value) {
                    if element.asciiCaseInsensitiveEquals("close") { connectionClose = true }
                    if element.asciiCaseInsensitiveEquals("keep-alive") { connectionKeepAlive = true }
                }
            case 14 where name.asciiCaseInsensitiveEquals("Content-Length"):
                contentLengths += Self.elements(value).map(String.init)
            case 17 where name.asciiCaseInsensitiveEquals("Transfer-Encoding"):
                hasTransferEncoding = true
            default:
                break
            }
        }
    }

    private static func elements(_ value: String) -> [Substring] {
        value.split(separator: ",").map { $0.trimmingOWS() }.filter { !$0.isEmpty }
    }
}
