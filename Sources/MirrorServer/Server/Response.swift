import MirrorCore

/// The body of a response queued on a connection.
enum ResponseBody {
    /// No body (HEAD, 304, 416, redirects without a page).
    case empty
    /// Bytes in memory (generated pages, small answers).
    case bytes([UInt8])
    /// A byte range of an open file, sent with `sendfile(2)` (plain) or in chunks (TLS).
    case file(OpenFile, Range<Int64>)
}

/// A response on its way to a connection's output queue.
struct Response {
    var status: Int
    var headers: HTTPHeaders
    var body: ResponseBody

    /// Content-Security-Policy for mirrored pages.
    ///
    /// `default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:` keeps a mirrored page's
    /// scripts, styles and images working from the mirror while stopping it from loading or
    /// connecting (fetch, XHR, WebSocket) to other origins, so a mirrored page cannot phone
    /// home. Navigation (clicking an absolute link to an out-of-scope page) is not governed by
    /// CSP and keeps working; `form-action` is left open for the same reason.
    static let contentSecurityPolicy = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:"

    /// Headers sent with every response.
    static let securityHeaders = "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
        + "Content-Security-Policy: \(contentSecurityPolicy)\r\n"

    /// A generated HTML page.
    static func page(_ status: Int, _ body: [UInt8], extra: HTTPHeaders = HTTPHeaders()) -> Response {
        var headers = extra
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return Response(status: status, headers: headers, body: .bytes(body))
    }

    /// A redirect with a tiny body.
    static func redirect(_ status: Int, to location: String, extra: HTTPHeaders = HTTPHeaders()) -> Response {
        var headers = extra
        headers.add("Location", location)
        return page(status, Pages.document(title: "Moved", body: "<a href=\"\(htmlEscape(location))\">Moved here</a>"), extra: headers)
    }

    /// The number of body bytes that will be sent for a GET.
    var bodyLength: Int64 {
        switch body {
        case .empty: 0
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let range): Int64(range.count)
        }
    }

    /// The status line and header section, appended to `out`.
    /// - Parameters:
    ///   - out: the buffer to append to.
    ///   - keepAlive: whether the connection stays open.
    ///   - dateLines: the `Date` and `Server` lines, each ending in CRLF.
    func appendHead(to out: inout [UInt8], keepAlive: Bool, dateLines: [UInt8]) {
        out.reserveCapacity(out.count + 400)
        out.append(ascii: "HTTP/1.1 ")
        out.append(decimal: Int64(status))
        out.append(0x20)
        out.append(ascii: HTTPStatus.phrase(status))
        out.appendCRLF()
        out.append(contentsOf: dateLines)
        var hasLength = false
        for (name, value) in headers {
            if !hasLength, name.asciiCaseInsensitiveEquals("Content-Length") { hasLength = true }
            out.append(ascii: name)
            out.append(0x3A)
            out.append(0x20)
            out.append(ascii: value)
            out.appendCRLF()
        }
        if !hasLength, status != 304, status >= 200 {
            out.append(ascii: "Content-Length: ")
            out.append(decimal: bodyLength)
            out.appendCRLF()
        }
        out.append(contentsOf: Self.securityHeaderBytes)
        if !keepAlive { out.append(ascii: "Connection: close\r\n") }
        out.appendCRLF()
    }

    /// The `Date` and `Server` lines for a formatted date.
    /// - Parameter date: the `Date` value (IMF-fixdate).
    static func dateLines(_ date: String) -> [UInt8] {
        Array("Date: \(date)\r\nServer: mtls-mirror\r\n".utf8)
    }

    /// ``securityHeaders`` as bytes.
    static let securityHeaderBytes = Array(securityHeaders.utf8)
}
