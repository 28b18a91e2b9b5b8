#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A short-named private folder under `/tmp` for a test's browser profile: Chromium puts a
/// Unix socket under its profile, and socket paths are limited to 107 bytes, which a
/// ``MirrorTestSupport/TemporaryDirectory`` (a UUID in its name) would exceed.
final class ProfileParent: Sendable {
    let path: String

    init() throws {
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
