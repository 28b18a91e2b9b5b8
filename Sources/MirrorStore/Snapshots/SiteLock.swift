import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive right to change one site's folder: `<site>/.lock`, held with
/// `flock(LOCK_EX | LOCK_NB)` on a descriptor kept open until ``release()`` or `deinit`.
///
/// The kernel drops a `flock` lock when its last descriptor closes, so a lock left by a
/// process that died, even by SIGKILL, is free again at once: there is no stale-lock
/// clean-up and no pid guessing. The holder writes `pid`, start time and command into the
/// file only so that a refused caller can say who holds it; the lock itself is the `flock`.
///
/// Refresh runs, `rollback` and snapshot clean-up take it; readers (`serve`, `snapshots`)
/// need not, because `current` is switched atomically.
///
/// The descriptor is opened with `O_CLOEXEC`, so child processes do not inherit the lock.
public final class SiteLock: @unchecked Sendable {
    /// The lock file's name inside the site folder.
    public static let fileName = ".lock"

    /// The site the lock is for (its folder name).
    public let site: String
    /// The lock file's path.
    public let path: String
    private let guardLock = NSLock()
    private var descriptor: Int32

    private init(site: String, path: String, descriptor: Int32) {
        self.site = site
        self.path = path
        self.descriptor = descriptor
    }

    /// Takes the lock of a site without waiting.
    ///
    /// Creates the site folder and its missing parents (0700) and the lock file (0600) when
    /// missing, then records this process (pid, `now`, `command`) in the file.
    /// - Parameters:
    ///   - siteDirectory: the site's folder, `<output>/<site>`.
    ///   - site: the site's name, for messages.
    ///   - command: what this process is doing (`refresh`, `rollback`), for the holder note.
    ///   - now: the start time written into the note.
    /// - Returns: the held lock; keep it alive for as long as the site must not change.
    /// - Throws: ``SiteLockError/lockHeld(site:pid:since:)`` when another process holds it,
    ///   ``SiteLockError/siteFolder(path:errno:)`` when the folder cannot be created,
    ///   ``SiteLockError/io(operation:path:errno:)`` when the lock file cannot be opened.
    public static func acquire(siteDirectory: String, site: String, command: String, now: Date = Date()) throws(SiteLockError) -> SiteLock {
        let path = siteDirectory + "/" + fileName
        do {
            try SecureFileSystem.createRoot(siteDirectory)
        } catch {
            switch error {
            case .io(_, let failedPath, let code): throw .siteFolder(path: failedPath, errno: code)
            case .diskFull(let failedPath): throw .siteFolder(path: failedPath, errno: ENOSPC)
            default: throw .siteFolder(path: siteDirectory, errno: EIO)
            }
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            let note = readNote(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK {
                throw .lockHeld(site: site, pid: note.pid, since: note.since)
            }
            throw .io(operation: "flock", path: path, errno: code)
        }
        let lock = SiteLock(site: site, path: path, descriptor: descriptor)
        let note = "pid=\(getpid())\nsince=\(SiteLockError.format(now))\ncommand=\(command)\n"
        guard ftruncate(descriptor, 0) == 0 else { throw .io(operation: "ftruncate", path: path, errno: errno) }
        let bytes = Array(note.utf8)
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else { throw .io(operation: "pwrite", path: path, errno: written < 0 ? errno : EIO) }
        return lock
    }

    /// Whether this object still holds the lock.
    public var isHeld: Bool {
        guardLock.lock()
        defer { guardLock.unlock() }
        return descriptor >= 0
    }

    /// Releases the lock (closing the descriptor). Calling it again does nothing.
    ///
    /// The note is emptied first, so that it never names a process that let go. (A holder
    /// killed by SIGKILL leaves its note; the next holder overwrites it.)
    public func release() {
        guardLock.lock()
        defer { guardLock.unlock() }
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    /// The holder's note: `pid=`, `since=` lines, either of which may be missing.
    static func readNote(_ descriptor: Int32) -> (pid: Int32?, since: Date?) {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return (nil, nil) }
        var pid: Int32?
        var since: Date?
        for line in String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("pid=") { pid = Int32(line.dropFirst(4)) }
            if line.hasPrefix("since=") { since = UTCTime.parseISO8601(String(line.dropFirst(6))) }
        }
        return (pid, since)
    }
}
