import Foundation
import Testing
@testable import MirrorStore
#if canImport(Glibc)
import Glibc
#endif

/// A `flock -x -o FILE sh -c SCRIPT` child holding a site's lock, as another process would.
///
/// `-o` keeps the lock in the `flock` process alone (the script does not inherit it), so
/// killing that process is what releases it.
final class LockHolder {
    let process = Process()

    init(lockFile: String, script: String = "sleep 10") throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = ["-x", "-o", lockFile, "sh", "-c", script]
        try process.run()
    }

    /// Waits until `probe` holds (at most 5 s).
    func waitUntilHeld(_ probe: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if probe() { return true }
            usleep(10_000)
        }
        return false
    }

    /// Sends `signal` to the `flock` process (not waiting: the caller polls the lock).
    func kill(signal: Int32) {
        Glibc.kill(process.processIdentifier, signal)
    }

    deinit {
        if process.isRunning { kill(signal: SIGKILL) }
    }
}

/// The error a lock attempt fails with, or nil when it succeeds (the lock is released at once).
func refusal(_ site: String, _ name: String) -> SiteLockError? {
    do {
        _ = try SiteLock.acquire(siteDirectory: site, site: name, command: "probe")
        return nil
    } catch {
        return error
    }
}

@Suite(.serialized) struct SiteLockTests {
    @Test func secondAcquireInTheSameProcessIsRefusedWithTheHolder() throws {
        let folder = try TemporaryFolder()
        let site = folder.path + "/intranet"
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        let lock = try SiteLock.acquire(siteDirectory: site, site: "intranet", command: "refresh", now: since)
        #expect(lock.isHeld)
        #expect(permissionBits(site) == 0o700)
        #expect(permissionBits(site + "/.lock") == 0o600)
        let note = try String(contentsOfFile: site + "/.lock", encoding: .utf8)
        #expect(note.contains("pid=\(getpid())\n"))
        #expect(note.contains("command=refresh\n"))
        // flock locks belong to the open file description: a second open conflicts even here.
        #expect(throws: SiteLockError.lockHeld(site: "intranet", pid: getpid(), since: since)) {
            try SiteLock.acquire(siteDirectory: site, site: "intranet", command: "rollback")
        }
        lock.release()
        #expect(!lock.isHeld)
        let again = try SiteLock.acquire(siteDirectory: site, site: "intranet", command: "rollback")
        #expect(again.isHeld)
    }

    @Test func releaseBlanksTheNoteInPlaceAndALongerNoteIsCut() throws {
        let folder = try TemporaryFolder()
        let site = folder.path + "/intranet"
        let lockFile = site + "/" + SiteLock.fileName
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        // A note longer than ours (another version's), whose pid must not survive after ours.
        try Data((String(repeating: "x", count: 300) + "\npid=99999\n").utf8).write(to: URL(fileURLWithPath: lockFile))
        let lock = try SiteLock.acquire(siteDirectory: site, site: "intranet", command: "refresh")
        let held = try Data(contentsOf: URL(fileURLWithPath: lockFile))
        #expect(held.count == SiteLock.noteSize)
        let text = String(decoding: held, as: UTF8.self)
        #expect(text.hasPrefix("pid=\(getpid())\nsince="))
        #expect(!text.contains("pid=99999") && !text.contains("x"))
        var before = stat()
        #expect(stat(lockFile, &before) == 0)
        lock.release()
        // Blanked in place: the same file, the same size, nothing but newlines.
        let released = try Data(contentsOf: URL(fileURLWithPath: lockFile))
        #expect(released.count == SiteLock.noteSize)
        #expect(released.allSatisfy { $0 == 0x0A })
        var after = stat()
        #expect(stat(lockFile, &after) == 0 && after.st_ino == before.st_ino)
        // The next holder writes its note over the blank one; a refused caller reads no pid from a blank.
        let again = try SiteLock.acquire(siteDirectory: site, site: "intranet", command: "rollback")
        defer { again.release() }
        let descriptor = open(lockFile, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        #expect(SiteLock.readNote(descriptor).pid == getpid())
        #expect(SiteLock.readNote(descriptor).since != nil)
    }

    @Test func aBlankedNoteNamesNoHolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/note"
        try Data(SiteLock.paddedNote("")).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        #expect(SiteLock.readNote(descriptor).pid == nil)
        #expect(SiteLock.readNote(descriptor).since == nil)
        #expect(SiteLock.paddedNote("pid=1\n").count == SiteLock.noteSize)
        let long = String(repeating: "c", count: 400)
        #expect(SiteLock.paddedNote(long) == Array(long.utf8))
    }

    @Test func theMessageNamesSitePidAndTime() {
        let error = SiteLockError.lockHeld(site: "intranet", pid: 4242, since: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(error.summary == "another refresh of intranet is running (pid 4242, since 2027-01-15T08:00:00Z)")
        #expect(error.hint == "wait for it, or stop it")
        #expect(SiteLockError.lockHeld(site: "x", pid: nil, since: nil).summary == "another refresh of x is running (pid unknown)")
    }

    @Test func anotherProcessHoldingTheLockBlocksUsUntilItIsKilled() throws {
        let folder = try TemporaryFolder()
        let site = folder.path + "/wiki"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let lockFile = site + "/" + SiteLock.fileName
        let holder = try LockHolder(lockFile: lockFile,
                                    script: "printf 'pid=%s\\nsince=2027-01-15T08:00:00Z\\ncommand=refresh\\n' $PPID > '\(lockFile)'; sleep 10")
        let held = holder.waitUntilHeld {
            if case .lockHeld(_, let pid, _) = refusal(site, "wiki") { return pid != nil }
            return false
        }
        #expect(held)
        #expect(refusal(site, "wiki") == .lockHeld(site: "wiki", pid: holder.process.processIdentifier,
                                                   since: Date(timeIntervalSince1970: 1_800_000_000)))
        // SIGKILL: no clean-up runs in the holder, yet the kernel releases the flock.
        holder.kill(signal: SIGKILL)
        #expect(holder.waitUntilHeld { refusal(site, "wiki") == nil }, "the lock was not released after SIGKILL")
        let lock = try SiteLock.acquire(siteDirectory: site, site: "wiki", command: "refresh")
        #expect(lock.isHeld)
        let note = try String(contentsOfFile: lockFile, encoding: .utf8)
        #expect(note.hasPrefix("pid=\(getpid())\n"))
    }

    @Test func aHolderThatWroteNoNoteIsReportedWithoutPid() throws {
        let folder = try TemporaryFolder()
        let site = folder.path + "/docs"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let holder = try LockHolder(lockFile: site + "/.lock")
        let held = holder.waitUntilHeld { refusal(site, "docs") != nil }
        #expect(held)
        #expect(throws: SiteLockError.lockHeld(site: "docs", pid: nil, since: nil)) {
            try SiteLock.acquire(siteDirectory: site, site: "docs", command: "refresh")
        }
        holder.kill(signal: SIGKILL)
        #expect(holder.waitUntilHeld { refusal(site, "docs") == nil }, "the lock was not released after the holder died")
    }

    @Test func aSiteFolderThatCannotBeCreatedIsNamedWithItsCause() throws {
        let folder = try TemporaryFolder()
        try Data("a file".utf8).write(to: URL(fileURLWithPath: folder.path + "/plain"))
        let site = folder.path + "/plain/site"
        // The folder is named as it was created, one component at a time ("//" becomes "/").
        let created = site.replacingOccurrences(of: "//", with: "/")
        #expect(throws: SiteLockError.siteFolder(path: created, errno: ENOTDIR)) {
            try SiteLock.acquire(siteDirectory: site, site: "site", command: "mirror")
        }
        let error = SiteLockError.siteFolder(path: site, errno: ENOTDIR)
        #expect(error.summary == "cannot create the folder '\(site)': Not a directory (errno 20)")
        #expect(error.hint == "check the output folder's path and permissions")
        #expect(SiteLockError.siteFolder(path: site, errno: ENOSPC).hint == "free space on the output folder's file system")
    }

    @Test func theSiteFolderAndItsMissingParentsArePrivate() throws {
        let folder = try TemporaryFolder()
        let site = folder.path + "/a/b/site"
        let lock = try SiteLock.acquire(siteDirectory: site, site: "site", command: "mirror")
        defer { lock.release() }
        for path in [folder.path + "/a", folder.path + "/a/b", site] {
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700, "\(path)")
        }
    }

    @Test func aLockFileThatIsASymlinkIsRefused() throws {
        let folder = try TemporaryFolder()
        let site = folder.path + "/evil"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site + "/.lock", withDestinationPath: folder.path + "/elsewhere")
        #expect(throws: SiteLockError.io(operation: "open", path: site + "/.lock", errno: ELOOP)) {
            try SiteLock.acquire(siteDirectory: site, site: "evil", command: "refresh")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/elsewhere"))
    }
}
