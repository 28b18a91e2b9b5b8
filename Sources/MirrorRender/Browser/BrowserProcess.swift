import CMirrorShims
import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

/// One running browser: its process group, its DevTools pipe and its profile folder.
///
/// Spawned with `posix_spawn` in a process group of its own (the pipe on descriptors 3 and 4,
/// every other descriptor of ours closed, default signal dispositions, an environment built
/// from nothing). ``stop()`` kills the whole group, then anything whose command line names
/// the profile (crashpad's handler calls `setsid()` and leaves the group), reaps the browser
/// and removes the profile. Chromium also exits by itself when its end of the pipe closes,
/// so a browser never outlives mtls-mirror by more than a moment.
final class BrowserProcess: @unchecked Sendable {
    /// The browser's process id (also its process group id).
    let pid: pid_t
    /// We write commands here (the browser's descriptor 3). Non-blocking.
    let commandDescriptor: Int32
    /// We read messages here (the browser's descriptor 4). Non-blocking.
    let messageDescriptor: Int32
    /// The browser's private folder.
    let profile: ProfileFolder

    private let lock = NSLock()
    private var stopped = false

    private init(pid: pid_t, commandDescriptor: Int32, messageDescriptor: Int32, profile: ProfileFolder) {
        self.pid = pid
        self.commandDescriptor = commandDescriptor
        self.messageDescriptor = messageDescriptor
        self.profile = profile
    }

    deinit {
        stop()
    }

    /// Starts the browser described by `launch` in a new profile folder.
    /// - Throws: ``RenderError/browserNotInstalled(path:)`` when the executable is missing,
    ///   ``RenderError/launchFailed(executable:errno:)`` when spawning fails.
    static func spawn(_ launch: BrowserLaunch) throws(RenderError) -> BrowserProcess {
        guard access(launch.executable, X_OK) == 0 else { throw .browserNotInstalled(path: launch.executable) }
        let profile = try ProfileFolder.create(in: launch.profileParent, executable: launch.executable)
        let (program, arguments) = launch.commandLine(profile: profile, uid: geteuid(), gid: getegid())
        if program == BrowserLaunch.unshare, access(program, X_OK) != 0 {
            profile.remove()
            throw .isolationUnavailable(command: program, status: 127, detail: "not installed (Debian package util-linux)")
        }
        // Both pipes get descriptors above 4, close-on-exec: dup2 onto 3 and 4 in the child
        // clears the flag there, and no other child of ours inherits them.
        guard let toBrowser = Self.pipe(), let fromBrowser = Self.pipe() else {
            let code = errno
            profile.remove()
            throw .launchFailed(executable: launch.executable, errno: code)
        }
        let spawned = ChildSpawn.spawn(program, argv: arguments, environment: BrowserLaunch.environment(profile: profile),
                                       newProcessGroup: true) { actions in
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, profile.standardErrorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, toBrowser.read, 3)
            posix_spawn_file_actions_adddup2(&actions, fromBrowser.write, 4)
            _ = CMirrorShims_posix_spawn_file_actions_addclosefrom(&actions, 5)
        }
        close(toBrowser.read)
        close(fromBrowser.write)
        guard case .success(let pid) = spawned else {
            close(toBrowser.write)
            close(fromBrowser.read)
            profile.remove()
            if case .failure(let failure) = spawned { throw .launchFailed(executable: program, errno: failure.code) }
            throw .launchFailed(executable: program, errno: EINVAL)
        }
        for descriptor in [toBrowser.write, fromBrowser.read] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            // F_SETPIPE_SZ (Linux, 1031; not in the Glibc module): 1 MiB instead of 64 KiB, so
            // a large response crosses in a few writes.
            _ = fcntl(descriptor, 1031, 1 << 20)
        }
        return BrowserProcess(pid: pid, commandDescriptor: toBrowser.write, messageDescriptor: fromBrowser.read, profile: profile)
    }

    /// A pipe whose two ends are close-on-exec descriptors numbered 10 or more.
    private static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return nil }
        let read = fcntl(ends[0], F_DUPFD_CLOEXEC, 10)
        let write = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        close(ends[0])
        close(ends[1])
        guard read >= 0, write >= 0 else {
            if read >= 0 { close(read) }
            if write >= 0 { close(write) }
            return nil
        }
        return (read, write)
    }

    /// How the browser ended, if it has: `exited N` or `was killed by signal N`. Reaps it.
    func exitStatus() -> String? {
        lock.lock()
        defer { lock.unlock() }
        return reap(options: WNOHANG)
    }

    private var reaped: String?

    /// Must be called with `lock` held.
    private func reap(options: Int32) -> String? {
        if let reaped { return reaped }
        var status: Int32 = 0
        let result = waitpid(pid, &status, options)
        guard result == pid else { return nil }
        let signal = status & 0x7F
        reaped = signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
        return reaped
    }

    /// Kills the browser and every process it started, reaps it, closes the pipe and removes
    /// the profile folder. Safe to call more than once and from any thread.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        close(commandDescriptor)
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        Self.killProcesses(naming: profile.path)
        // SIGKILL cannot be ignored: the wait is short. Bounded all the same.
        var waited = 0
        while reap(options: WNOHANG) == nil, waited < 200 {
            usleep(10_000)
            waited += 1
        }
        close(messageDescriptor)
        Self.killProcesses(naming: profile.path)
        profile.remove()
    }

    /// Sends SIGKILL to every process whose command line contains `text` (the profile path:
    /// every process of a browser names its `--user-data-dir`, crashpad its database under
    /// `XDG_CONFIG_HOME`).
    static func killProcesses(naming text: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        let needle = Array(text.utf8)
        for entry in entries {
            guard let pid = Int32(entry), pid != getpid(),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty
            else { continue }
            let bytes = [UInt8](data)
            if bytes.firstRange(of: needle) != nil { kill(pid, SIGKILL) }
        }
    }
}
