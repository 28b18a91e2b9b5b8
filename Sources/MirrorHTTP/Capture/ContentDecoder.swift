import Foundation
import CBrotli
import CMirrorShims
import CZlib

/// Decodes a body's `Content-Encoding` as it streams in: gzip (and x-gzip), deflate (zlib or
/// raw, as libcurl accepts both) and br, one after the other when several are listed.
///
/// The engine uses it when it records an exchange: libcurl then hands over the bytes as sent
/// (CURLOPT_HTTP_CONTENT_DECODING off), the archive keeps those, and this decodes them for the
/// mirror, as libcurl would have. An encoding it does not know fails, as it does in libcurl
/// ("Unrecognized content encoding type"). Like libcurl, it takes a compressed stream that
/// stops early without complaint (the body's HTTP framing says whether it is whole) and ignores
/// bytes after the stream's end.
final class ContentDecoder {
    /// Why a body could not be decoded.
    enum Failure: Error, Equatable {
        /// The listed encoding is not one this decoder knows.
        case unsupported(String)
        /// The data is not valid for the encoding (`message` from zlib or Brotli).
        case corrupt(encoding: String, message: String)

        var message: String {
            switch self {
            case .unsupported(let name): "Unrecognized content encoding type: \(name)"
            case .corrupt(let name, let message): "the \(name) body cannot be decoded: \(message)"
            }
        }
    }

    private let stages: [Stage]

    /// A decoder for a `Content-Encoding` value, or nil when it asks for none (empty, `identity`).
    /// - Throws: ``Failure/unsupported(_:)`` for an unknown encoding.
    init?(contentEncoding: String) throws(Failure) {
        // Listed in the order they were applied: decode from the last.
        let names = contentEncoding.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" && $0 != "none" }
        guard !names.isEmpty else { return nil }
        var stages: [Stage] = []
        for name in names.reversed() {
            switch name {
            case "gzip", "x-gzip": stages.append(try ZlibStage(name: name, windowBits: 15 + 16))
            case "deflate": stages.append(try ZlibStage(name: name, windowBits: 15, rawFallback: true))
            case "br": stages.append(try BrotliStage())
            default: throw .unsupported(name)
            }
        }
        self.stages = stages
    }

    /// Decodes a chunk and hands the decoded bytes to `sink`, in pieces; `sink` returns false to
    /// stop. Returns false when `sink` stopped.
    /// - Throws: ``Failure/corrupt(encoding:message:)``.
    func decode(_ chunk: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool) throws(Failure) -> Bool {
        try feed(chunk, stage: 0, sink: sink)
    }

    private func feed(_ chunk: UnsafeRawBufferPointer, stage index: Int, sink: (UnsafeRawBufferPointer) -> Bool) throws(Failure) -> Bool {
        guard index < stages.count else { return sink(chunk) }
        var failure: Failure?
        let kept = try stages[index].decode(chunk) { piece in
            do throws(Failure) {
                return try feed(piece, stage: index + 1, sink: sink)
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return kept
    }
}

/// One encoding's decoder.
private protocol Stage: AnyObject {
    var name: String { get }
    var isFinished: Bool { get }
    func decode(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool) throws(ContentDecoder.Failure) -> Bool
}

private let stageBufferSize = 64 * 1024

/// gzip and deflate through zlib's inflate.
private final class ZlibStage: Stage {
    let name: String
    private(set) var isFinished = false
    private var stream = z_stream()
    private let output = UnsafeMutablePointer<UInt8>.allocate(capacity: stageBufferSize)
    private var rawFallback: Bool
    private var producedAny = false

    init(name: String, windowBits: Int32, rawFallback: Bool = false) throws(ContentDecoder.Failure) {
        self.name = name
        self.rawFallback = rawFallback
        guard CMirrorShims_inflateInit2(&stream, windowBits) == Z_OK else {
            output.deallocate()
            throw .corrupt(encoding: name, message: "inflateInit2 failed")
        }
    }

    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool) throws(ContentDecoder.Failure) -> Bool {
        guard !isFinished, let base = input.baseAddress, input.count > 0 else { return true }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        while stream.avail_in > 0 {
            stream.next_out = output
            stream.avail_out = UInt32(stageBufferSize)
            let code = inflate(&stream, Z_NO_FLUSH)
            if code == Z_DATA_ERROR, rawFallback, !producedAny, stream.total_in <= UInt(input.count) {
                // "deflate" sent without its zlib wrapper: read it again as raw deflate.
                rawFallback = false
                inflateEnd(&stream)
                guard CMirrorShims_inflateInit2(&stream, -15) == Z_OK else { throw .corrupt(encoding: name, message: "inflateInit2 failed") }
                return try decode(input, into: sink)
            }
            let produced = stageBufferSize - Int(stream.avail_out)
            if produced > 0 {
                producedAny = true
                if !sink(UnsafeRawBufferPointer(start: output, count: produced)) { return false }
            }
            switch code {
            case Z_STREAM_END:
                isFinished = true  // anything after the stream is ignored, as libcurl does
                return true
            case Z_OK:
                continue
            case Z_BUF_ERROR where produced > 0:
                continue
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                throw .corrupt(encoding: name, message: message)
            }
        }
        // Input used up; flush what inflate still holds for a full output buffer.
        while stream.avail_out == 0 {
            stream.next_out = output
            stream.avail_out = UInt32(stageBufferSize)
            let code = inflate(&stream, Z_NO_FLUSH)
            let produced = stageBufferSize - Int(stream.avail_out)
            if produced > 0, !sink(UnsafeRawBufferPointer(start: output, count: produced)) { return false }
            if code == Z_STREAM_END { isFinished = true; break }
            if code != Z_OK && code != Z_BUF_ERROR {
                throw .corrupt(encoding: name, message: stream.msg.map { String(cString: $0) } ?? "zlib error \(code)")
            }
        }
        return true
    }
}

/// br through Brotli's streaming decoder.
private final class BrotliStage: Stage {
    let name = "br"
    private(set) var isFinished = false
    private let state: OpaquePointer
    private let output = UnsafeMutablePointer<UInt8>.allocate(capacity: stageBufferSize)

    init() throws(ContentDecoder.Failure) {
        if let reason = BrotliLibrary.unavailableReason {
            output.deallocate()
            throw .corrupt(encoding: "br", message: reason)
        }
        guard let state = CMirrorShims_BrotliDecoderCreateInstance() else {
            output.deallocate()
            throw .corrupt(encoding: "br", message: "BrotliDecoderCreateInstance failed")
        }
        self.state = state
    }

    deinit {
        CMirrorShims_BrotliDecoderDestroyInstance(state)
        output.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool) throws(ContentDecoder.Failure) -> Bool {
        guard !isFinished, let base = input.baseAddress, input.count > 0 else { return true }
        var nextIn: UnsafePointer<UInt8>? = base.assumingMemoryBound(to: UInt8.self)
        var availIn = input.count
        while true {
            var nextOut: UnsafeMutablePointer<UInt8>? = output
            var availOut = stageBufferSize
            let result = CMirrorShims_BrotliDecoderDecompressStream(state, &availIn, &nextIn, &availOut, &nextOut)
            let produced = stageBufferSize - availOut
            if produced > 0, !sink(UnsafeRawBufferPointer(start: output, count: produced)) { return false }
            switch result {
            case BROTLI_DECODER_RESULT_SUCCESS:
                isFinished = true
                return true
            case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                return true
            case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                continue
            default:
                let code = CMirrorShims_BrotliDecoderGetErrorCode(state)
                throw .corrupt(encoding: "br", message: String(cString: CMirrorShims_BrotliDecoderErrorString(code)))
            }
        }
    }
}
