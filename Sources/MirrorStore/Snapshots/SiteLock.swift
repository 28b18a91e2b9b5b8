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
/// file (padded with newlines to ``noteSize`` bytes) only so that a refused caller can say who
/// holds it; the lock itself is the `flock`.
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
    /// The length of the note this holder wrote, which ``release()`` blanks.
    private let noteLength: Int

    private init(site: String, path: String, descriptor: Int32, noteLength: Int) {
        self.site = site
        self.path = path
        self.descriptor = descriptor
        self.noteLength = noteLength
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
        let note = paddedNote("pid=\(getpid())\nsince=\(SiteLockError.format(now))\ncommand=\(command)\n")
        let lock = SiteLock(site: site, path: path, descriptor: descriptor, noteLength: note.count)
        let written = note.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == note.count else { throw .io(operation: "pwrite", path: path, errno: written < 0 ? errno : EIO) }
        // Only a longer note (another version's, or a hand-made file) leaves bytes after ours.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > off_t(note.count) {
            guard ftruncate(descriptor, off_t(note.count)) == 0 else { throw .io(operation: "ftruncate", path: path, errno: errno) }
        }
        return lock
    }

    /// The size a note is padded to with newlines, so that every holder's note covers the
    /// whole file and is overwritten in place (see ``release()``).
    static let noteSize = 256

    /// `text` padded with newlines to ``noteSize`` bytes (a longer text stays as it is).
    static func paddedNote(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        if bytes.count < noteSize { bytes += repeatElement(0x0A, count: noteSize - bytes.count) }
        return bytes
    }

    /// Whether this object still holds the lock.
    public var isHeld: Bool {
        guardLock.lock()
        defer { guardLock.unlock() }
        return descriptor >= 0
    }

    /// Releases the lock (closing the descriptor). Calling it again does nothing.
    ///
    /// The note is blanked first, so that it never names a process that let go. (A holder
    /// killed by SIGKILL leaves its note; the next holder overwrites it.) It is overwritten in
    /// place with newlines, not truncated: `ftruncate` frees the file's block, and on ext4
    /// that waited 0.3–0.5 ms for the disk at the end of every run (issue #27).
    public func release() {
        guardLock.lock()
        defer { guardLock.unlock() }
        guard descriptor >= 0 else { return }
        let blank = [UInt8](repeating: 0x0A, count: noteLength)
        _ = blank.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
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
