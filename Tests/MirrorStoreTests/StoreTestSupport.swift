import Foundation
import MirrorCore
@testable import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

/// A fresh private temporary folder, removed when the value is dropped.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/mirrorstore-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }
        }
        guard made != nil else { throw StoreError.io(operation: "mkdtemp", path: "tmp", errno: errno) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Every entry below the folder, as relative paths.
    func allEntries() -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
    }
}

/// `stat` mode bits (permissions only) of a path, without following a final symlink.
func permissionBits(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

/// The canonical absolute path, or nil.
func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}


/// For printed timings: a debug build's are many times a release build's.
#if DEBUG
let buildConfiguration = "debug build"
#else
let buildConfiguration = "release build"
#endif

/// Where two files differ: the first line that is not the same byte for byte, both ways (an
/// expectation on two long byte arrays would print every byte of both).
func firstDifference(_ actual: [UInt8], _ expected: [UInt8]) -> String? {
    guard actual != expected else { return nil }
    let actualLines = actual.split(separator: 0x0A, omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
    for index in 0..<max(actualLines.count, expectedLines.count) {
        let left = index < actualLines.count ? Array(actualLines[index]) : nil
        let right = index < expectedLines.count ? Array(expectedLines[index]) : nil
        if left != right {
            return "line \(index + 1): \(left.map { String(decoding: $0, as: UTF8.self).debugDescription } ?? "none") "
                + "instead of \(right.map { String(decoding: $0, as: UTF8.self).debugDescription } ?? "none") "
                + "(bytes \(left?.count ?? 0) and \(right?.count ?? 0))"
        }
    }
    return "same lines, different bytes"
}
