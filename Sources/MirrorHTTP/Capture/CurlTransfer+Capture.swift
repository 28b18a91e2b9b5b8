import CCurl
import CMirrorShims
import Foundation

// The capture side of a transfer (``HTTPRequest/capture``): undecoded bodies kept and decoded
// here, the request header block as sent, and the ``HTTPCapture`` at the end.

private let curlTransferDebug: curl_debug_callback = { _, type, data, size, userdata in
    guard type == CURLINFO_HEADER_OUT, let data, let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    transfer.capture?.requestHeader(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

extension CurlTransfer {
    /// The options of a captured exchange: libcurl hands over the body undecoded, and shows the
    /// request header block as sent (CURLOPT_VERBOSE with a debug function, which receives it
    /// instead of standard error). `me` is this transfer, unretained.
    func configureCapture(_ me: UnsafeMutableRawPointer) throws(HTTPError) {
        let url = request.url
        func check(_ code: CURLcode, _ what: String) throws(HTTPError) {
            if code != CURLE_OK { throw .curl(url: url, code: Int32(code.rawValue), message: "\(what): \(CurlGlobal.describe(code))") }
        }
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0), "content decoding")
        try check(CMirrorShims_curl_easy_setopt_debug_callback(easy, curlTransferDebug), "debug function")
        try check(CMirrorShims_curl_easy_setopt_ptr(easy, CURLOPT_DEBUGDATA, me), "debug data")
        try check(CMirrorShims_curl_easy_setopt_long(easy, CURLOPT_VERBOSE, 1), "verbose")
    }

    /// Keeps the bytes as sent, then decodes them (``ContentDecoder``, made from the response's
    /// `Content-Encoding` at the first body byte) into ``receiveDecoded(_:)``. Returns false to
    /// abort the transfer.
    func receiveCaptured(_ chunk: UnsafeRawBufferPointer, capture: TransferCapture) -> Bool {
        if !capture.decoderChecked {
            capture.decoderChecked = true
            // libcurl decodes only what it asked for (CURLOPT_ACCEPT_ENCODING); so does this.
            if request.acceptCompression, let encoding = headers["Content-Encoding"] {
                do {
                    capture.decoder = try ContentDecoder(contentEncoding: encoding)
                } catch {
                    abortReason = .network(url: request.url, code: Int32(CURLE_BAD_CONTENT_ENCODING.rawValue), message: error.message)
                    return false
                }
            }
        }
        if let failure = capture.receive(chunk) {
            abortReason = failure
            return false
        }
        guard let decoder = capture.decoder else { return receiveDecoded(chunk) }
        do {
            return try decoder.decode(chunk) { receiveDecoded($0) }
        } catch {
            abortReason = .network(url: request.url, code: Int32(CURLE_BAD_CONTENT_ENCODING.rawValue), message: error.message)
            return false
        }
    }

    /// Builds the capture from what the callbacks kept and how the transfer ended: a payload cut
    /// short says why (WARC-Truncated: `length` for a size limit, `time`, `disconnect`, or
    /// `unspecified`, such as for the decompression-bomb guard).
    /// `bodySHA256` is the hash of the body as this transfer delivered it.
    func finishCapture(_ capture: TransferCapture, code: CURLcode, bodySHA256: String) {
        let truncation: HTTPCapture.Truncation?
        switch abortReason {
        case .bodyTooLarge?: truncation = .length
        case .some: truncation = .unspecified
        case nil:
            switch code {
            case CURLE_OK: truncation = nil
            case CURLE_FILESIZE_EXCEEDED: truncation = .length
            case CURLE_OPERATION_TIMEDOUT: truncation = .time
            case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SEND_ERROR:
                truncation = .disconnect
            default: truncation = .unspecified
            }
        }
        var version: Int = 0
        _ = CMirrorShims_curl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        let httpVersion = switch version {
        case Int(CURL_HTTP_VERSION_1_0): "1.0"
        case Int(CURL_HTTP_VERSION_2_0): "2"
        case Int(CURL_HTTP_VERSION_3): "3"
        default: "1.1"
        }
        var ip: UnsafePointer<CChar>?
        _ = CMirrorShims_curl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &ip)
        let remoteIP = ip.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        capture.finish(url: request.url, method: request.method.rawValue, status: statusCode, httpVersion: httpVersion,
                       remoteIP: remoteIP, tlsVersion: profile == nil ? nil : outcome.tlsVersion, truncation: truncation,
                       bodySHA256: abortReason == nil && code == CURLE_OK ? bodySHA256 : nil, requestBody: request.body ?? [])
    }
}
