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
    /// The payload's hash, kept only when a decoder changes the bytes the transfer hashes.
    private lazy var hasher = SHA256Stream()
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

    /// Forgets a request that was never answered, before it is sent again: the record holds
    /// the request as it was last sent.
    func forgetAttempt() {
        requestHead.removeAll(keepingCapacity: true)
        responseHead.removeAll(keepingCapacity: true)
        sentAt = nil
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
        // Without a decoder the transfer hashes the same bytes already (see `finish`).
        if decoder != nil { hasher.update(chunk) }
        if spoolDescriptor < 0, memory.count + chunk.count <= options.memoryLimit {
            memory.append(contentsOf: chunk.bindMemory(to: UInt8.self))
            return nil
        }
        if spoolDescriptor < 0 {
            let path = options.spool.makePath()
            spoolPath = path
            spoolDescriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard spoolDescriptor >= 0 else { return .io(path: path, errno: errno) }
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
                return .io(path: spoolPath ?? options.spool.folder, errno: errno)
            }
            offset += count
        }
        return nil
    }

    /// Ends the capture: the spool file is closed and the capture built (nil when no response
    /// head arrived, so there is nothing to record).
    ///
    /// - Parameter bodySHA256: the transfer's hash of the body it was given, which is the
    ///   payload's when nothing was decoded and nothing cut off.
    func finish(url: String, method: String, status: Int, httpVersion: String, remoteIP: String?, tlsVersion: String?,
                truncation: HTTPCapture.Truncation?, bodySHA256: String?, requestBody: [UInt8] = []) {
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
        let sha256: String
        if decoder != nil {
            sha256 = hasher.finalizeHex()
        } else if let bodySHA256 {
            sha256 = bodySHA256
        } else {
            sha256 = Self.hash(payload)
        }
        result = HTTPCapture(
            url: url, method: method, date: sentAt ?? Date(), requestHead: requestHead, responseHead: responseHead,
            payload: payload, payloadSHA256: sha256, status: status, httpVersion: httpVersion,
            remoteIP: remoteIP, tlsVersion: tlsVersion, truncation: truncation, requestBody: requestBody)
        memory = []
    }

    /// The SHA-256 of a payload in memory or in its spool file (for a transfer cut short).
    static func hash(_ payload: CapturedPayload) -> String {
        switch payload {
        case .memory(let bytes):
            return SHA256Digest.hex(bytes)
        case .file(let path, _):
            let hasher = SHA256Stream()
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 {
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                }
                close(descriptor)
            }
            return hasher.finalizeHex()
        }
    }
}
