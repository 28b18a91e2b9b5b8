#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real squid proxy on loopback for tests: an `http_port`, optionally an `https_port` (an
/// HTTPS proxy with the test server certificate), optional Basic authentication, and one
/// CONNECT destination port that it denies. Its access log has one line per request:
/// `METHOD URL STATUS SQUID-RESULT`, e.g. `CONNECT localhost:8443 200 TCP_TUNNEL`.
///
/// Debian's squid must start as root and then runs as `proxy` (`cache_effective_user`), so its
/// folder, log and key are owned by `proxy`.
public final class SquidFixture: Sendable {
    public let httpPort: UInt16
    public let httpsPort: UInt16?
    /// CONNECT to this port is denied (403).
    public let deniedPort: UInt16
    private let storage: TemporaryDirectory
    private let process: LockedBox<Process?>
    private let cleanupToken: LockedBox<Int?>

    /// Why squid could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "squid: \(reason) (run scripts/install-deps.sh: it installs squid)" }
    }

    /// Starts squid.
    ///
    /// - Parameters:
    ///   - pki: with it, an `https_port` presents the PKI's `server-chain.pem` (CN localhost).
    ///   - credentials: require Basic authentication with this user and password.
    ///   - deniedPort: the destination port whose CONNECT is refused.
    /// - Throws: ``Failure`` when squid is missing or does not come up.
    public init(httpsWith pki: TestPKI? = nil, credentials: (user: String, password: String)? = nil, deniedPort: UInt16 = 9) throws {
        guard let squid = ["/usr/sbin/squid", "/usr/bin/squid"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Failure(reason: "not installed")
        }
        storage = try TemporaryDirectory(prefix: "mtls-mirror-squid")
        let root = storage.path
        httpPort = try FreePort.reserve()
        httpsPort = pki == nil ? nil : try FreePort.reserve()
        self.deniedPort = deniedPort
        var lines = [
            "http_port 127.0.0.1:\(httpPort)",
            "acl denied_port port \(deniedPort)",
            "acl CONNECT method CONNECT",
            "http_access deny CONNECT denied_port",
        ]
        if let pki, let httpsPort {
            try FileManager.default.copyItem(atPath: pki.path("server-chain.pem"), toPath: root + "/proxy-chain.pem")
            try FileManager.default.copyItem(atPath: pki.path("server.key"), toPath: root + "/proxy.key")
            lines.append("https_port 127.0.0.1:\(httpsPort) tls-cert=\(root)/proxy-chain.pem tls-key=\(root)/proxy.key")
        }
        if let credentials {
            let hash = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/openssl")).run(["passwd", "-1", credentials.password])
            guard hash.succeeded else { throw Failure(reason: "openssl passwd failed: \(hash.stderr)") }
            try "\(credentials.user):\(hash.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\n"
                .write(toFile: root + "/passwords", atomically: true, encoding: .utf8)
            lines += [
                "auth_param basic program /usr/lib/squid/basic_ncsa_auth \(root)/passwords",
                "auth_param basic realm mirror-test",
                "acl authenticated proxy_auth REQUIRED",
                "http_access allow authenticated",
            ]
        } else {
            lines.append("http_access allow localhost")
        }
        lines += [
            "http_access deny all",
            "logformat mirror %rm %ru %>Hs %Ss",
            "access_log stdio:\(root)/access.log mirror",
            "cache_log \(root)/cache.log",
            "pid_filename \(root)/squid.pid",
            "coredump_dir \(root)",
            "cache deny all",
            "shutdown_lifetime 0 seconds",
            "pinger_enable off",
            "dns_v4_first on",
        ]
        if getuid() == 0 { lines.append("cache_effective_user proxy") }
        try (lines.joined(separator: "\n") + "\n").write(toFile: root + "/squid.conf", atomically: true, encoding: .utf8)
        if getuid() == 0 {
            for path in [root, root + "/squid.conf", root + "/proxy-chain.pem", root + "/proxy.key", root + "/passwords"]
            where FileManager.default.fileExists(atPath: path) {
                _ = chown(path, Self.proxyUser.uid, Self.proxyUser.gid)
            }
        }
        let squidProcess = Process()
        squidProcess.executableURL = URL(fileURLWithPath: squid)
        squidProcess.arguments = ["-N", "-f", root + "/squid.conf"]
        squidProcess.standardOutput = FileHandle.nullDevice
        squidProcess.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try squidProcess.run() } catch { throw Failure(reason: "cannot start \(squid): \(error)") }
        process = LockedBox(squidProcess)
        cleanupToken = LockedBox(nil)
        // A fixture held in a static lives until the test process exits: squid goes with it.
        let box = process
        cleanupToken.withLock { $0 = ExitCleanup.register { if let running = box.take() { Self.terminate(running) } } }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if FreePort.isAccepting(httpPort), httpsPort.map(FreePort.isAccepting) ?? true { return }
            if !squidProcess.isRunning { break }
            usleep(100_000)
        }
        stop()
        throw Failure(reason: "did not start listening: \((try? String(contentsOfFile: root + "/cache.log", encoding: .utf8)) ?? "")")
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`, or the HTTPS port as `https://localhost:PORT`.
    public var httpURL: String { "http://127.0.0.1:\(httpPort)" }
    public var httpsURL: String? { httpsPort.map { "https://localhost:\($0)" } }

    /// The access log's lines, waiting up to `timeout` seconds for at least `atLeast` of them
    /// (squid writes a tunnel's line when the tunnel closes). Connections that sent no request
    /// at all (squid logs `- error:transaction-end-before-headers`, as for the fixture's own
    /// readiness probes) are left out: they are not requests.
    public func accessLog(atLeast: Int = 1, timeout: TimeInterval = 10) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text = (try? String(contentsOfFile: storage.path + "/access.log", encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("- error:transaction-end-before-headers") }
            if lines.count >= atLeast || Date() >= deadline { return lines }
            usleep(100_000)
        }
    }

    /// Stops squid (SIGTERM, then SIGKILL for the whole tree).
    public func stop() {
        if let token = cleanupToken.take() { ExitCleanup.unregister(token) }
        guard let running = process.take() else { return }
        Self.terminate(running)
    }

    /// SIGTERM (squid then stops its helpers), SIGKILL for whatever is left of the tree.
    private static func terminate(_ running: Process) {
        let tree = ProcessTree.descendants(of: running.processIdentifier)
        ProcessTree.stop(running, signal: SIGTERM, timeout: 3)
        for pid in tree { kill(pid, SIGKILL) }
    }

    private static let proxyUser: (uid: uid_t, gid: gid_t) = {
        guard let entry = getpwnam("proxy") else { return (13, 13) }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }()
}
