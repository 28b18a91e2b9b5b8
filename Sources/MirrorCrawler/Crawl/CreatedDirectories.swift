import Foundation
import MirrorStore

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
}
