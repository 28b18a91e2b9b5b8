import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Receives the exchanges of requests that ask for a capture: an archive writer.
///
/// ``HTTPClient`` calls ``record(_:)`` once per exchange that got a response, whether it ended
/// well or was cut short, and for every hop and retry of ``HTTPClient/fetch(_:security:redirects:retries:cookies:follow:sleep:)``.
/// It calls it from the requesting task, after the transfer ended, never on the engine thread.
public protocol ExchangeRecorder: Sendable {
    /// Takes a finished exchange. The recorder owns a spooled payload file from now on.
    func record(_ capture: HTTPCapture) async

    /// Whether the recorder already holds a full capture of `url` from an earlier run. A caller
    /// that would revalidate `url` (If-None-Match) fetches it unconditionally when this is false,
    /// so that a `304` never stands for a payload the archive does not have.
    func hasCapture(of url: String) -> Bool
}

extension ExchangeRecorder {
    public func hasCapture(of url: String) -> Bool { true }
}

/// What a request that asks for a capture needs: where the exchange goes, and where a large
/// payload is kept meanwhile.
public struct CaptureOptions: Sendable {
    /// The encodings the request accepts (`Accept-Encoding`). With a capture, the engine does not
    /// let libcurl decode bodies (CURLOPT_HTTP_CONTENT_DECODING off): it keeps the bytes as sent
    /// and decodes them itself (``ContentDecoder``), so only what it can decode is asked for.
    public static let acceptedEncodings = "gzip, deflate, br"

    /// Receives each exchange (nil: the capture is only put in ``HTTPResponse/capture``).
    public var recorder: (any ExchangeRecorder)?
    /// Payloads up to this size stay in memory; larger ones go to a spool file.
    public var memoryLimit: Int
    /// Names the spool files.
    public var spool: CaptureSpool

    /// - Parameters:
    ///   - recorder: where each exchange goes.
    ///   - memoryLimit: the largest payload kept in memory (default 64 KiB).
    ///   - spool: the folder for larger payloads.
    public init(recorder: (any ExchangeRecorder)?, memoryLimit: Int = 64 * 1024, spool: CaptureSpool) {
        self.recorder = recorder
        self.memoryLimit = memoryLimit
        self.spool = spool
    }
}

/// A private folder for payloads too large for memory, and fresh names in it.
public final class CaptureSpool: Sendable {
    /// The folder (it must exist and be private: 0700).
    public let folder: String
    private let counter = SpoolCounter()

    /// - Parameter folder: an existing private folder.
    public init(folder: String) {
        self.folder = folder
    }

    /// A path in the folder that no other call returned (`.spool-PID-N`).
    public func makePath() -> String {
        folder + "/.spool-\(getpid())-\(counter.next())"
    }

    private final class SpoolCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var value: UInt64 = 0
        func next() -> UInt64 {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}
