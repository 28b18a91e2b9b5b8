#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension NginxFixture {
    /// The nginx executable: `$MTLS_MIRROR_NGINX`, else `nginx` on `PATH` or in `/usr/sbin`.
    ///
    /// - Throws: ``Failure/nginxNotFound(searched:)``.
    static func locateNginx() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["MTLS_MIRROR_NGINX"], !override.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: override) else {
                throw Failure.nginxNotFound(searched: [override])
            }
            return URL(fileURLWithPath: override)
        }
        guard let found = CommandRunner.tool(named: "nginx") else {
            throw Failure.nginxNotFound(searched: ["PATH", "/usr/sbin", "/usr/local/sbin"])
        }
        return found
    }

    /// Waits until `process` has exited or `timeout` seconds have passed; true when it exited.
    static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Kills the nginx master `pid` and its workers with `SIGKILL` at once.
    ///
    /// The workers are found before the master dies: once orphaned they would keep the
    /// listening sockets open.
    static func killTree(_ pid: pid_t) {
        let children = childProcesses(of: pid)
        kill(pid, SIGKILL)
        for child in children { kill(child, SIGKILL) }
    }

    /// The direct children of `pid`, read from `/proc` (empty where there is no `/proc`).
    static func childProcesses(of pid: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            return []
        }
        return entries.compactMap { entry -> pid_t? in
            guard let candidate = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // Fields after "comm)": state, ppid, ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == pid else { return nil }
            return candidate
        }
    }
}
