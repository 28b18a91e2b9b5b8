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

    /// Kills the nginx master `pid` and its workers with `SIGKILL` at once.
    ///
    /// The workers are found before the master dies: once orphaned they would keep the
    /// listening sockets open.
    static func killTree(_ pid: pid_t) {
        ProcessTree.signalTree(pid, SIGKILL)
    }
}
