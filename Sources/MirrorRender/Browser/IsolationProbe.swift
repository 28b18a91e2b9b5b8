import CMirrorShims
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Finds the strongest ``BrowserIsolation`` this machine allows, by trying it: `unshare`
/// with the namespace flags runs `/bin/true`, and its exit status says whether the kernel
/// lets us create those namespaces. Runs once per renderer, in a few milliseconds.
enum IsolationProbe {
    /// What was chosen, and why a stronger mode was not.
    struct Choice: Sendable, Equatable {
        var isolation: BrowserIsolation
        /// Set when the browser's sandbox is off (running as root without user namespaces).
        var warning: String?
    }

    /// The isolation to use for a process with effective user `uid` and group `gid`.
    /// - Throws: ``RenderError/isolationUnavailable(command:status:detail:)`` when no network
    ///   namespace can be made: render mode then refuses to start a browser.
    static func choose(uid: UInt32 = geteuid(), gid: UInt32 = getegid(), unshare: String = BrowserLaunch.unshare)
        throws(RenderError) -> Choice
    {
        guard access(unshare, X_OK) == 0 else {
            throw .isolationUnavailable(command: unshare, status: 127, detail: "not installed (Debian package util-linux)")
        }
        let strong = BrowserIsolation.privateNetworkWithSandbox.unshareArguments(uid: uid, gid: gid)
        let first = run(unshare, strong + ["--", "/bin/true"])
        if first.status == 0 { return Choice(isolation: .privateNetworkWithSandbox) }
        guard uid == 0 else {
            throw .isolationUnavailable(command: ([unshare] + strong).joined(separator: " "), status: first.status, detail: first.error)
        }
        let weak = BrowserIsolation.privateNetworkWithoutSandbox.unshareArguments(uid: uid, gid: gid)
        let second = run(unshare, weak + ["--", "/bin/true"])
        guard second.status == 0 else {
            throw .isolationUnavailable(command: ([unshare] + weak).joined(separator: " "), status: second.status, detail: second.error)
        }
        return Choice(isolation: .privateNetworkWithoutSandbox, warning:
            "the browser runs without its sandbox (--no-sandbox): user namespaces are unavailable and mtls-mirror runs as root "
            + "(\(first.error.isEmpty ? "unshare --user failed" : first.error)); its network is still closed. Run as an ordinary user "
            + "to keep the sandbox (README, Render mode)")
    }

    /// Runs `program` with `arguments` (no shell), standard error captured, and waits.
    private static func run(_ program: String, _ arguments: [String]) -> (status: Int32, error: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, String(cString: strerror(errno))) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        _ = CMirrorShims_posix_spawn_file_actions_addclosefrom(&actions, 3)
        let argv = ([program] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { free(environment[0]) }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
            posix_spawn(&pid, program, &actions, nil, buffer.baseAddress!, &environment)
        }
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            return (-1, String(cString: strerror(spawned)))
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            if output.count < 16_384 { output.append(contentsOf: chunk.prefix(count)) }
        }
        close(ends[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let text = String(decoding: output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return (code, text)
    }
}
