import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

/// What one transfer records for its ``HTTPCapture``: the request header block as libcurl sent
/// it, the response's header lines as they arrived, and the body as received (in memory up to
/// ``CaptureOptions/memoryLimit``, then in a spool file), with its SHA-256.
///
/// Fed on the engine thread by ``CurlTransfer``'s callbacks; ``HTTPClient`` reads ``result``
/// after the transfer's continuation resumed (which orders the two).
final class TransferCapture: @unchecked Sendable {
    let options: CaptureOptions
    private(set) var requestHead: [UInt8] = []
    private(set) var responseHead: [UInt8] = []
    private var memory: [UInt8] = []
    private var spoolPath: String?
    private var spoolDescriptor: Int32 = -1
    private let hasher = SHA256Stream()
    /// Raw body bytes received.
    private(set) var rawBytes: Int64 = 0
    /// When the request left (the first request header byte seen).
    private(set) var sentAt: Date?
    /// The decoder for the response's `Content-Encoding`, made when its first body byte arrives.
    var decoder: ContentDecoder?
    var decoderChecked = false
    /// The finished capture, set by ``CurlTransfer/finish(code:)``.
    var result: HTTPCapture?

    init(options: CaptureOptions) {
        self.options = options
    }

    deinit {
        if spoolDescriptor >= 0 { close(spoolDescriptor) }
        // A spool file nobody took (the transfer failed before a response): remove it.
        if result == nil, let spoolPath { unlink(spoolPath) }
    }

    /// libcurl's CURLINFO_HEADER_OUT: (part of) the request header block.
    func requestHeader(_ bytes: UnsafeRawBufferPointer) {
        if sentAt == nil { sentAt = Date() }
        requestHead.append(contentsOf: bytes.bindMemory(to: UInt8.self))
    }

    /// One response header line as received (with its line end). A status line starts a new
    /// head: a 1xx response, or a proxy's answer to CONNECT, is not the final one.
    func responseHeader(_ line: UnsafeBufferPointer<UInt8>, isStatusLine: Bool) {
        if isStatusLine { responseHead.removeAll(keepingCapacity: true) }
        responseHead.append(contentsOf: line)
    }

    /// Keeps raw body bytes. Returns the error that stops the transfer when the spool file
    /// cannot be written.
    func receive(_ chunk: UnsafeRawBufferPointer) -> HTTPError? {
        rawBytes += Int64(chunk.count)
        hasher.update(chunk)
        if spoolDescriptor < 0, memory.count + chunk.count <= options.memoryLimit {
            memory.append(contentsOf: chunk.bindMemory(to: UInt8.self))
            return nil
        }
        if spoolDescriptor < 0 {
            let path = options.spool.makePath()
            spoolPath = path
            spoolDescriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard spoolDescriptor >= 0 else { return .io(path: path, message: String(cString: strerror(errno))) }
            let held = memory
            memory = []
            if let failure = held.withUnsafeBytes({ write($0) }) { return failure }
        }
        return write(chunk)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) -> HTTPError? {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(spoolDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return .io(path: spoolPath ?? options.spool.folder, message: String(cString: strerror(errno)))
            }
            offset += count
        }
        return nil
    }

    /// Ends the capture: the spool file is closed and the capture built (nil when no response
    /// head arrived, so there is nothing to record).
    func finish(url: String, method: String, status: Int, httpVersion: String, remoteIP: String?, tlsVersion: String?,
                truncation: HTTPCapture.Truncation?) {
        if spoolDescriptor >= 0 {
            close(spoolDescriptor)
            spoolDescriptor = -1
        }
        guard !responseHead.isEmpty else {
            if let spoolPath { unlink(spoolPath) }
            spoolPath = nil
            return
        }
        let payload: CapturedPayload = spoolPath.map { .file(path: $0, length: rawBytes) } ?? .memory(memory)
        result = HTTPCapture(
            url: url, method: method, date: sentAt ?? Date(), requestHead: requestHead, responseHead: responseHead,
            payload: payload, payloadSHA256: hasher.finalizeHex(), status: status, httpVersion: httpVersion,
            remoteIP: remoteIP, tlsVersion: tlsVersion, truncation: truncation)
        memory = []
    }
}
