import CCurl
import CMirrorShims
import Foundation
import MirrorCore
import MirrorTLS
#if canImport(Glibc)
import Glibc
#endif

/// One request in flight: owns its curl easy handle, the header list, the body sink and the
/// continuation of the task that waits for it.
///
/// Thread confinement: after ``CurlMultiEngine`` accepts it, only the engine thread touches it
/// (the C callbacks run on that thread too). It is kept alive by `Unmanaged` pointers stored in
/// CURLOPT_PRIVATE, CURLOPT_WRITEDATA, CURLOPT_HEADERDATA and CURLOPT_SSL_CTX_DATA until the
/// engine completes it.
final class CurlTransfer: @unchecked Sendable {
    /// CURLOPT_BUFFERSIZE: the largest TLS record's plaintext (2^14 bytes), so that one read
    /// drains a record (see `configure`). 256 transfers in flight hold 4 MiB of these.
    static let receiveBufferBytes = 16 * 1024

    let request: HTTPRequest
    let profile: TLSProfile?
    /// The proxy to tunnel through, or nil for a direct connection.
    let proxy: ProxyEndpoint?
    let host: String
    let port: Int
    /// The easy handle, lent by the engine (``CurlMultiEngine/takeHandle(_:)``); it goes back to
    /// the engine's idle handles when the transfer is over (``releaseHandle()``), or is
    /// cleaned up with the transfer.
    let easy: UnsafeMutableRawPointer
    /// Whether ``easy`` is still this transfer's to clean up.
    private var ownsHandle = true
    /// ``easy`` was made for this transfer (not reset after another one).
    private let isNewHandle: Bool
    let outcome = HandshakeOutcome()
    let continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>
    let id: UInt64
    /// The exchange's record, when the request asks for one (``HTTPRequest/capture``).
    let capture: TransferCapture?

    private var headerList: UnsafeMutablePointer<curl_slist>?
    private(set) var headers = HTTPHeaders()
    private(set) var body: [UInt8] = []
    /// The body's file, once the body goes to one (made by ``HTTPRequest/bodyFiles``).
    private var file: (any BodyFile)?
    private var fileOpened = false
    private(set) var bodyBytes: Int64 = 0
    private let hasher = SHA256Stream()
    /// Why a callback aborted the transfer, if one did.
    var abortReason: HTTPError?
    private var identityInstallFailed: String?
    private(set) var statusCode: Int = 0
    private var connectionRecorded = false
    /// CURLOPT_ERRORBUFFER: libcurl's detailed message for the last failure.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The local port of the connection that carries the request, set when libcurl is about
    /// to send it (CURLOPT_PREREQFUNCTION); 0 until then. Each connection has its own port, so
    /// the engine counts the requests in flight per connection with it.
    private(set) var connectionPort: Int32 = 0
    /// When the request left (monotonic nanoseconds; 0 until then), for the header deadline.
    private(set) var sentAt: UInt64 = 0
    /// The final response's header block has ended (a 1xx block does not count).
    private(set) var headersComplete = false
    /// A paced request (``HTTPRequest/onSent``) was sent on a connection it opened.
    private var openedConnection = false
    private var pacingMomentNoted = false
    /// Engine bookkeeping: the port under which the engine counted this request (0: not
    /// counted), and whether the transfer has left the multi handle.
    var countedPort: Int32 = 0
    var isRetired = false

    /// - Parameter handle: a new or reset easy handle (``CurlMultiEngine/takeHandle(_:)``), owned
    ///   by the transfer from now on.
    init(id: UInt64, handle: (easy: UnsafeMutableRawPointer, isNew: Bool), request: HTTPRequest, host: String, port: Int,
         profile: TLSProfile?, proxy: ProxyEndpoint? = nil, capture: TransferCapture? = nil,
         continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>) {
        self.id = id
        self.easy = handle.easy
        isNewHandle = handle.isNew
        self.request = request
        self.host = host
        self.port = port
        self.profile = profile
        self.proxy = proxy
        self.capture = capture
        self.continuation = continuation
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    /// How often the engine sent this request again (``mayResend(after:)``).
    private(set) var resends = 0
    /// The most resends of one request.
    static let maximumResends = 2

    /// Whether the engine may send the request again after it ended with `code`: the server
    /// never answered it (no byte of a response), it failed as libcurl fails a request whose
    /// connection died or whose HTTP/2 stream the server refused (CURLE_RECV_ERROR,
    /// CURLE_SEND_ERROR), and it is a GET or HEAD, which may be repeated. libcurl itself retries
    /// such a request five times, each on a new connection; against a server that allows
    /// fewer streams than libcurl puts on a connection before the server's SETTINGS arrive,
    /// every retry can land on such a connection and be refused again (curl 56, "Connection
    /// died, tried 5 times"). A refused stream was not processed at all (RFC 9113 §8.7).
    func mayResend(after code: CURLcode) -> Bool {
        guard code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR, resends < Self.maximumResends,
              request.method == .get || request.method == .head,
              statusCode == 0, bodyBytes == 0, !fileOpened, abortReason == nil else { return false }
        return true
    }

    /// Forgets what the failed attempt left, before the engine adds the handle again.
    func prepareResend() {
        resends += 1
        errorBuffer[0] = 0
        connectionPort = 0
        sentAt = 0
        headersComplete = false
        headers = HTTPHeaders()
        capture?.forgetAttempt()
    }

    /// libcurl's detailed error text, or its generic text for `code`.
    func errorText(_ code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? CurlGlobal.describe(code) : detail
    }

    /// Gives up the easy handle: the caller (the engine, which has reset it) keeps it for
    /// another transfer. Nothing of this transfer may touch the handle afterwards.
    func releaseHandle() -> UnsafeMutableRawPointer? {
        guard ownsHandle else { return nil }
        ownsHandle = false
        return easy
    }

    deinit {
        if ownsHandle { CMirrorShims_curl_easy_cleanup(easy) }
        if let headerList { CMirrorShims_curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
        _ = file?.finish(sync: false)
    }

    /// Sets every option on the easy handle. `share` carries the TLS session and DNS caches.
    /// - Parameter http1: ask for HTTP/1.1 instead of HTTP/2 over TLS (the engine's choice on
    ///   a near link, see ``HTTPVersionPreference``).
    func configure(share: UnsafeMutableRawPointer?, http1: Bool = false) throws(HTTPError) {
        let url = request.url
        func check(_ code: CURLcode, _ what: String) throws(HTTPError) {
            if code != CURLE_OK { throw .curl(url: url, code: Int32(code.rawValue), message: "\(what): \(CurlGlobal.describe(code))") }
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_URL, url), "URL")
        try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, Self.cString("http,https")), "protocols")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1), "nosignal")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0), "followlocation")
        if request.method == .head {
            try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_NOBODY, 1), "nobody")
        } else if request.method == .post {
            let body = request.body ?? []
            try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_POST, 1), "post")
            try check(CMirrorShims_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), "post size")
            // COPYPOSTFIELDS copies the bytes: the request value may go before the transfer does.
            let code = body.withUnsafeBytes { bytes in
                CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(Self.cString("")))
            }
            try check(code, "post body")
        }
        try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_PRIVATE, me), "private")
        try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer), "error buffer")
        try check(CMirrorShims_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, curlTransferWrite), "write function")
        try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me), "write data")
        try check(CMirrorShims_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, curlTransferHeader), "header function")
        try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me), "header data")
        if let share { try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_SHARE, share), "share") }
        try check(CMirrorShims_curl_easy_setopt_prereq_callback(easy, curlTransferPrerequest), "prereq function")
        try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_PREREQDATA, me), "prereq data")

        // TLS: the trust evaluator decides everything inside the handshake (see TLSProfile), so
        // curl's own checks are off; they would only duplicate it, and would block pinned
        // self-signed servers. The identity is installed by the same callback.
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0), "verifypeer")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0), "verifyhost")
        if profile != nil {
            try check(CMirrorShims_curl_easy_setopt_ssl_ctx_callback(easy, curlTransferSSLContext), "ssl ctx function")
            try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_SSL_CTX_DATA, me), "ssl ctx data")
        }
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(http1 ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS)), "http version")
        try configureProxy()
        // No PIPEWAIT: a transfer takes a free connection (or opens one) instead of queueing
        // behind the streams of one HTTP/2 connection. Measured on 4,700 URLs over loopback:
        // 2.5 s against 5.7 s, because one connection funnels every frame through one socket.
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 0), "pipewait")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1), "keepalive")
        // The receive buffer must hold a whole TLS record (16 KiB of plaintext at most). With a
        // smaller one, libcurl 7.88 leaves the rest of a record in OpenSSL's buffer, where
        // polling the socket cannot see it: a response that ends in such a record waited for
        // the engine's one-second poll timeout (a 13 KB start page stalled every crawl by 1 s).
        // A reset handle keeps the buffer its first transfer allocated at this size, and libcurl
        // refuses to resize an allocated buffer (CURLE_BAD_FUNCTION_ARGUMENT).
        if isNewHandle {
            try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, Self.receiveBufferBytes), "buffer size")
        }

        let timeouts = request.timeouts
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(timeouts.connect * 1000)), "connect timeout")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(timeouts.total * 1000)), "timeout")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, timeouts.lowSpeedBytes), "low speed limit")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(timeouts.idle))), "low speed time")
        if let cap = request.maxBodyBytes {
            try check(CMirrorShims_curl_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(cap)), "max file size")
        }
        if capture != nil {
            try configureCapture(me)
        } else if request.acceptCompression {
            // "" = every encoding this libcurl decodes (gzip, deflate, br, zstd).
            try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, Self.cString("")), "accept encoding")
        }
        try check(CMirrorShims_curl_easy_setopt_string(easy, CURLOPT_USERAGENT, request.userAgent), "user agent")

        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if capture != nil, request.acceptCompression { lines.append("Accept-Encoding: " + CaptureOptions.acceptedEncodings) }
        // No `Expect: 100-continue` round trip before a POST body.
        if request.method == .post { lines.append("Expect:") }
        if let etag = request.ifNoneMatch { lines.append("If-None-Match: \(etag)") }
        if let date = request.ifModifiedSince { lines.append("If-Modified-Since: \(date)") }
        for line in lines {
            guard !line.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else {
                throw .invalidURL(url, reason: "a request header contains a line break")
            }
            guard let appended = CMirrorShims_curl_slist_append(headerList, line) else {
                throw .curl(url: url, code: -1, message: "curl_slist_append failed")
            }
            headerList = appended
        }
        if let headerList {
            try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, UnsafeRawPointer(headerList)), "headers")
        }
    }

    /// A literal as a C string, without a copy. A `String` literal of up to 15 bytes is stored
    /// inline, and passing one where C wants `const char *` copies it to the heap every time.
    private static func cString(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    // MARK: Callbacks (engine thread)

    func receiveHeader(_ line: UnsafeBufferPointer<UInt8>) {
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\n") || line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let isStatusLine = end >= 5 && line[0] == UInt8(ascii: "H") && line[1] == UInt8(ascii: "T") && line[2] == UInt8(ascii: "T")
            && line[3] == UInt8(ascii: "P") && line[4] == UInt8(ascii: "/")
        capture?.responseHeader(line, isStatusLine: isStatusLine)
        if end == 0 {
            // The blank line that ends a header block: the final one unless it followed a 1xx.
            if statusCode >= 200 {
                headersComplete = true
                if openedConnection { notePacingMoment() }
            }
            return
        }
        if isStatusLine {
            let text = String(decoding: UnsafeBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
            if profile != nil, !connectionRecorded {
                // The connection may be reused (no handshake now): read its TLS parameters.
                connectionRecorded = true
                var info: UnsafeMutablePointer<curl_tlssessioninfo>?
                if CMirrorShims_curl_easy_getinfo_tls_session(easy, &info) == CURLE_OK,
                   let info, info.pointee.backend == CURLSSLBACKEND_OPENSSL, let ssl = info.pointee.internals {
                    outcome.recordConnection(ssl: ssl)
                }
            }
            // A new response (after 1xx, or a proxy CONNECT): start over.
            headers = HTTPHeaders()
            headers.reserveCapacity(16)  // nginx sends 8 to 10
            let parts = text.split(separator: " ", maxSplits: 2)
            statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return
        }
        // Split at the first colon and trim spaces and tabs, on bytes (this runs for every
        // header of every response).
        let bytes = UnsafeBufferPointer(rebasing: line[0..<end])
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        func trimmed(_ range: Range<Int>) -> String {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
            while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
        }
        let name = trimmed(0..<colon)
        let value = trimmed((colon + 1)..<bytes.count)
        headers.append(name: name, value: value)
    }

    /// Body bytes as libcurl hands them over: decoded by libcurl, or, with a capture, as sent
    /// (kept for the capture, then decoded here). Returns false to abort the transfer (the
    /// reason is kept in ``abortReason``).
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard let capture else { return receiveDecoded(chunk) }
        return receiveCaptured(chunk, capture: capture)
    }

    /// Decoded body bytes. Returns false to abort the transfer.
    func receiveDecoded(_ chunk: UnsafeRawBufferPointer) -> Bool {
        bodyBytes += Int64(chunk.count)
        if let byteRate = request.byteRate {
            // The engine thread waits: every transfer it carries pauses with it, which is what
            // keeps the total (not each transfer) to the rate.
            let wait = byteRate.delay(for: chunk.count)
            if wait > 0 { usleep(useconds_t(min(wait, 5) * 1_000_000)) }
        }
        if let cap = request.maxBodyBytes, bodyBytes > cap {
            abortReason = .bodyTooLarge(url: request.url, limit: cap)
            return false
        }
        if request.acceptCompression, bodyBytes > 1_048_576 {
            var wire: curl_off_t = 0
            _ = CMirrorShims_curl_easy_getinfo_off(easy, CURLINFO_SIZE_DOWNLOAD_T, &wire)
            if let capture { wire = curl_off_t(capture.rawBytes) }
            if wire > 0, Double(bodyBytes) / Double(wire) > request.maxDecompressionRatio {
                abortReason = .decompressionBomb(url: request.url, ratio: request.maxDecompressionRatio)
                return false
            }
        }
        hasher.update(chunk)
        if statusCode >= 400, request.destination.filePath != nil {
            // An error page is kept in memory (its first 64 KiB), never written to the file.
            if body.count < 64 * 1024 { body.append(contentsOf: chunk.prefix(64 * 1024 - body.count)) }
            return true
        }
        switch request.destination {
        case .discard:
            return true
        case .memory:
            body.append(contentsOf: chunk)
            return true
        case .file(let path):
            return writeToFile(chunk, path: path)
        case .memoryUpTo(let limit, let path):
            if !fileOpened {
                if bodyBytes <= Int64(limit) {
                    if body.isEmpty, let length = contentLength, length <= limit { body.reserveCapacity(length) }
                    body.append(contentsOf: chunk)
                    return true
                }
                // Past the limit: what is held so far goes to the file first.
                let held = body
                body = []
                let ok = held.withUnsafeBytes { writeToFile($0, path: path) }
                if !ok { return false }
            }
            return writeToFile(chunk, path: path)
        }
    }

    /// The declared length of the body, when it is a plain number.
    private var contentLength: Int? {
        headers["Content-Length"].flatMap { Int($0) }
    }

    /// Appends to the body file, having it made (``HTTPRequest/bodyFiles``) first.
    private func writeToFile(_ chunk: UnsafeRawBufferPointer, path: String) -> Bool {
        if !fileOpened {
            fileOpened = true
            switch openBodyFile(path) {
            case .success(let made): file = made
            case .failure(let error):
                abortReason = error
                return false
            }
        }
        guard let file else { return false }
        let code = file.append(chunk)
        if code != 0 {
            abortReason = .io(path: path, errno: code)
            return false
        }
        return true
    }

    private func openBodyFile(_ path: String) -> Result<any BodyFile, HTTPError> {
        guard let maker = request.bodyFiles else { return .failure(.io(path: path, errno: EINVAL)) }
        return maker.create(path).mapError { .io(path: path, errno: $0.errno) }
    }

    /// The request is about to leave on the connection whose local port is `port`.
    func willSend(onConnectionPort port: Int32) {
        connectionPort = max(1, port)
        if sentAt == 0 {
            sentAt = DispatchTime.now().uptimeNanoseconds
            guard request.onSent != nil else { return }
            var connects = 0
            _ = CMirrorShims_curl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
            // On a connection it opened, the server reads the request only once it has finished
            // the handshake (checked the client's certificate): the pacing counts from the
            // response's headers then (``notePacingMoment()``).
            if connects > 0 { openedConnection = true } else { notePacingMoment() }
        }
    }

    /// The moment a paced host's interval counts from has come: tells ``HTTPRequest/onSent``, once.
    private func notePacingMoment() {
        guard !pacingMomentNoted else { return }
        pacingMomentNoted = true
        request.onSent?()
    }

    /// The time from the request leaving to `now` (nanoseconds), or nil when it has not left.
    func duration(at now: UInt64) -> UInt64? {
        guard sentAt != 0, now >= sentAt else { return nil }
        return now - sentAt
    }

    /// Whether the response headers are overdue at `now` (monotonic nanoseconds).
    func headersOverdue(at now: UInt64) -> Bool {
        guard sentAt != 0, !headersComplete else { return false }
        return now &- sentAt > UInt64(max(0, request.timeouts.headers) * 1_000_000_000)
    }

    func configureTLS(_ sslContext: UnsafeMutableRawPointer) -> Bool {
        guard let profile else { return true }
        // libcurl calls this for an HTTPS proxy's own handshake too: that one keeps curl's
        // verification and gets neither the identity nor the origin's evaluator.
        if TLSProfile.isVerifiedByLibcurl(sslContext: sslContext) { return true }
        return profile.configure(sslContext: sslContext, host: host, port: port, outcome: outcome)
    }

    // MARK: Completion

    /// Builds the result from curl's final code and the state the callbacks collected.
    func finish(code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        let sha256 = hasher.finalizeHex()
        if let capture { finishCapture(capture, code: code, bodySHA256: sha256) }
        if let file {
            self.file = nil
            let failure = file.finish(sync: request.syncFile && code == CURLE_OK)
            if failure != 0, code == CURLE_OK, abortReason == nil, let path = request.destination.filePath {
                return .failure(.io(path: path, errno: failure))
            }
        }
        if let abortReason { return .failure(abortReason) }
        if code != CURLE_OK { return .failure(CurlErrorMapper.map(code: code, transfer: self)) }

        var status: Int = 0
        _ = CMirrorShims_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var version: Int = 0
        _ = CMirrorShims_curl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        var wire: curl_off_t = 0
        _ = CMirrorShims_curl_easy_getinfo_off(easy, CURLINFO_SIZE_DOWNLOAD_T, &wire)
        var total: Double = 0
        _ = CMirrorShims_curl_easy_getinfo_double(easy, CURLINFO_TOTAL_TIME, &total)
        var connects: Int = 0
        _ = CMirrorShims_curl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)

        let httpVersion: String
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): httpVersion = "1.0"
        case Int(CURL_HTTP_VERSION_2_0): httpVersion = "2"
        case Int(CURL_HTTP_VERSION_3): httpVersion = "3"
        default: httpVersion = "1.1"
        }
        var response = HTTPResponse(
            url: request.url, status: status, headers: headers, body: body,
            bodyFile: nil, bodyBytes: bodyBytes, wireBytes: Int64(wire), sha256: sha256,
            httpVersion: httpVersion, tls: nil, totalTime: total, reusedConnection: connects == 0)
        if case .memoryUpTo = request.destination, fileOpened, (200...299).contains(status) {
            response.bodyFile = request.destination.filePath
        } else if case .file(let path) = request.destination, (200...299).contains(status), request.method == .get {
            if !fileOpened {
                // An empty body still produces an (empty) file.
                switch openBodyFile(path) {
                case .success(let empty):
                    let failure = empty.finish(sync: false)
                    if failure != 0 { return .failure(.io(path: path, errno: failure)) }
                case .failure(let error): return .failure(error)
                }
            }
            response.bodyFile = path
        }
        if let profile {
            response.tls = TLSConnectionInfo(
                version: outcome.tlsVersion, cipher: outcome.cipher, alpn: outcome.alpn,
                serverTrust: outcome.serverTrust, evaluatorName: profile.evaluator.name,
                identitySent: profile.identity != nil)
        }
        if request.detectCertificateRejection, let rejection = ClientCertificateRejection.detect(status: status, body: response.body) {
            return .failure(.clientCertificateRejected(
                url: request.url, identitySent: profile?.identity != nil, detail: rejection))
        }
        return .success(response)
    }
}

// MARK: - C callbacks (no captures; the transfer comes back through the userdata pointer)

private let curlTransferWrite: CMirrorShims_curl_data_callback = { data, size, count, userdata in
    guard let data, let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    let ok = transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length))
    return ok ? length : 0
}

private let curlTransferHeader: CMirrorShims_curl_data_callback = { data, size, count, userdata in
    guard let data, let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.receiveHeader(UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

private let curlTransferSSLContext: CMirrorShims_curl_ssl_ctx_callback = { _, sslContext, userdata in
    guard let sslContext, let userdata else { return CURLE_SSL_CERTPROBLEM }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.configureTLS(sslContext) ? CURLE_OK : CURLE_SSL_CERTPROBLEM
}

private let curlTransferPrerequest: curl_prereq_callback = { userdata, _, _, _, localPort in
    guard let userdata else { return CURL_PREREQFUNC_OK }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    transfer.willSend(onConnectionPort: localPort)
    return CURL_PREREQFUNC_OK
}
