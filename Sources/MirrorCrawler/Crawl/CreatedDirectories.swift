import Foundation
import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

/// Remembers which folders of a snapshot exist, so that linking thousands of unchanged files
/// does not walk and re-create each file's parent folders every time. Thread-safe.
final class CreatedDirectories: @unchecked Sendable {
    private let lock = NSLock()
    private var known: Set<String> = [""]

    /// Creates `relativePath` (0700, with parents) below the file system's root unless done.
    func ensure(_ relativePath: String, in fileSystem: SecureFileSystem) throws(StoreError) {
        lock.lock()
        let done = known.contains(relativePath)
        lock.unlock()
        if done { return }
        try fileSystem.createDirectory(relativePath)
        lock.lock()
        known.insert(relativePath)
        lock.unlock()
    }

    /// Removes every remembered folder that is empty (deepest first), e.g. one made for a
    /// download that then failed, and forgets it. Non-empty folders stay (`rmdir` refuses them).
    func removeEmpty(in fileSystem: SecureFileSystem) {
        lock.lock()
        let folders = known.filter { !$0.isEmpty }.sorted { $0.utf8.count > $1.utf8.count }
        lock.unlock()
        for folder in folders where fileSystem.removeEmptyDirectory(folder) {
            lock.lock()
            known.remove(folder)
            lock.unlock()
        }
    }

    /// The folder part of a relative path (`a/b` for `a/b/c.html`, empty for `c.html`).
    static func parent(of relativePath: String) -> String {
        guard let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(relativePath[..<slash])
    }
}
