#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private folder with a short name directly under `/tmp` (`/tmp/mr-XXXXXX`), removed with
/// everything in it when released: for a browser's profile, under which Chromium makes a Unix
/// socket, whose path may not exceed 107 bytes (a ``TemporaryDirectory``, with a UUID in its
/// name, would).
public final class ShortTemporaryDirectory: Sendable {
    public let path: String

    /// - Throws: `POSIXError` when `mkdtemp` fails.
    public init() throws {
        var template = Array("/tmp/mr-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
