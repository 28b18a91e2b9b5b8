#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A real nginx with client-certificate authentication on free loopback ports, for
/// integration and end-to-end tests.
///
/// The fixture writes a configuration into a private temporary prefix, runs
/// `nginx -p PREFIX -c CONF -e ERRLOG` in the foreground (one master, one worker), and returns
/// once every port accepts TCP. When nginx fails to start, the initialiser throws with nginx's
/// error log in the message instead of hanging. ``stop()`` (also called from `deinit` and when
/// the test process exits) sends `SIGQUIT`, then `SIGKILL`, and waits.
///
/// Startup costs ~50 ms, so one fixture per suite is the usual pattern:
///
/// ```swift
/// @Suite struct FetchTests {
///     static let nginx = Result { try NginxFixture(.mtls, .expired) }
///
///     @Test func fetchesAPage() throws {
///         let nginx = try Self.nginx.get()
///         try nginx.site.write("a.html", "<p>hi</p>")
///         let url = nginx.url(.mtls, path: "/a.html")   // https://localhost:PORT/a.html
///         ...
///     }
/// }
/// ```
public final class NginxFixture: Sendable {
    /// The docroot served under `/` by every block.
    public let site: Site
    /// The PKI whose certificates the blocks present and trust.
    public let pki: TestPKI
    /// The prefix directory holding `conf/`, `logs/`, `temp/` and the docroot `html/`.
    public let prefix: URL

    let configuration: NginxConfiguration
    private let ports: [Server: UInt16]
    private let storage: TemporaryDirectory
    private let options: Options
    /// The running master process and its exit-cleanup token; `nil` once stopped.
    private let running: LockedBox<(process: Process, cleanupToken: Int)?>

    /// Starts nginx with the given server blocks, using the shared test PKI.
    ///
    /// - Parameters:
    ///   - servers: The blocks to create; each gets its own port.
    ///   - options: Timeouts and extra directives.
    /// - Throws: ``Failure`` when nginx cannot be found or does not come up (retried with new
    ///   ports when a port was taken meanwhile), and ``TestPKI/Failure`` when the PKI cannot
    ///   be generated.
    public convenience init(_ servers: Server..., options: Options = Options()) throws {
        try self.init(servers: servers, pki: TestPKI.shared(), options: options)
    }

    /// Starts nginx with the given server blocks and PKI.
    ///
    /// - Parameters:
    ///   - servers: The blocks to create; duplicates are ignored.
    ///   - pki: The certificates to present and trust.
    ///   - options: Timeouts and extra directives.
    /// - Throws: ``Failure/nginxNotFound(searched:)``, ``Failure/setupFailed(path:reason:)``,
    ///   ``Failure/launchFailed(executable:reason:)``,
    ///   ``Failure/exitedDuringStartup(exitStatus:ports:errorLog:)`` or
    ///   ``Failure/notListening(seconds:ports:errorLog:)``.
    public init(servers: [Server], pki: TestPKI, options: Options = Options()) throws {
        let nginx = try Self.locateNginx()
        let storage: TemporaryDirectory
        do {
            storage = try TemporaryDirectory(prefix: "mtls-mirror-nginx")
        } catch {
            throw Failure.setupFailed(path: FileManager.default.temporaryDirectory.path, reason: "\(error)")
        }
        let prefix = storage.url
        let docroot = prefix.appendingPathComponent("html", isDirectory: true)
        var unique: [Server] = []
        for server in servers where !unique.contains(server) { unique.append(server) }

        var attempt = 0
        while true {
            attempt += 1
            let ports = Dictionary(uniqueKeysWithValues: unique.map { ($0, FreePort.allocate()) })
            let configuration = NginxConfiguration(
                prefix: prefix.path, docroot: docroot.path, pkiDirectory: pki.directory.path,
                blocks: unique.map { .init(server: $0, port: ports[$0] ?? 0) },
                runAsRoot: geteuid() == 0, options: options)
            do {
                let process = try Self.launch(nginx, configuration: configuration, docroot: docroot)
                let pid = process.processIdentifier
                let prefixPath = prefix.path
                let token = ExitCleanup.register {
                    NginxFixture.killTree(pid)
                    try? FileManager.default.removeItem(atPath: prefixPath)
                }
                self.running = LockedBox((process, token))
                self.configuration = configuration
                self.ports = ports
                self.storage = storage
                self.prefix = prefix
                self.options = options
                self.pki = pki
                self.site = Site(root: docroot)
                return
            } catch let failure as Failure where failure.isAddressInUse && attempt < 4 {
                continue
            }
        }
    }

    deinit {
        stop()
    }

    /// The port of a configured server block.
    ///
    /// Asking for a block the fixture was not created with is a bug in the test and stops
    /// the process with a message naming the configured blocks.
    ///
    /// - Parameters:
    ///   - server: A block passed to the initialiser.
    public func port(_ server: Server) -> UInt16 {
        guard let port = ports[server] else {
            let configured = ports.keys.map(\.rawValue).sorted().joined(separator: ", ")
            preconditionFailure("NginxFixture has no .\(server.rawValue) block (configured: \(configured))")
        }
        return port
    }

    /// `https://localhost:PORT/path` (or `127.0.0.1` with `host: .ipv4`) for a server block.
    ///
    /// - Parameters:
    ///   - server: A block passed to the initialiser.
    ///   - path: The path and query; a leading `/` is added when missing.
    ///   - host: Which host name to use.
    public func url(_ server: Server, path: String = "/", host: Host = .localhost) -> String {
        let normalized = path.hasPrefix("/") ? path : "/" + path
        return "https://\(host.rawValue):\(port(server))\(normalized)"
    }

    /// `https://127.0.0.1:PORT/path` for a server block.
    ///
    /// - Parameters:
    ///   - server: A block passed to the initialiser.
    ///   - path: The path and query; a leading `/` is added when missing.
    public func ipURL(_ server: Server, path: String = "/") -> String {
        url(server, path: path, host: .ipv4)
    }

    /// Whether the nginx master process is still running.
    public var isRunning: Bool {
        running.withLock { $0?.process.isRunning ?? false }
    }

    /// Stops nginx: `SIGQUIT` (graceful), then `SIGKILL` for master and workers after
    /// ``Options/shutdownTimeout``, and waits for the master to exit. Calling it again does
    /// nothing. The ports are closed when it returns.
    public func stop() {
        guard let (process, token) = running.take() else { return }
        ExitCleanup.unregister(token)
        // On SIGQUIT the master waits for its workers before it exits, so its exit means
        // the listening sockets are closed.
        ProcessTree.stop(process, signal: SIGQUIT, timeout: options.shutdownTimeout)
    }

    /// Writes the prefix tree and configuration, starts nginx, and waits until it listens.
    private static func launch(
        _ nginx: URL, configuration: NginxConfiguration, docroot: URL
    ) throws -> Process {
        let confURL = URL(fileURLWithPath: configuration.prefix + "/conf/nginx.conf")
        let stderrURL = URL(fileURLWithPath: configuration.prefix + "/logs/nginx.stderr")
        do {
            let fileManager = FileManager.default
            for directory in configuration.temporaryDirectories + [
                configuration.prefix + "/conf", configuration.prefix + "/logs", docroot.path,
            ] {
                try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            for log in [configuration.errorLog, configuration.accessLog, configuration.clientSubjectsLog] {
                try Data().write(to: URL(fileURLWithPath: log))
            }
            try? fileManager.removeItem(atPath: configuration.pidFile)
            try Data(configuration.render().utf8).write(to: confURL)
            try Data().write(to: stderrURL)
        } catch {
            throw Failure.setupFailed(path: configuration.prefix, reason: "\(error)")
        }

        let process = Process()
        process.executableURL = nginx
        process.arguments = [
            "-p", configuration.prefix + "/", "-c", confURL.path, "-e", configuration.errorLog,
        ]
        let output = try? FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = output ?? FileHandle.nullDevice
        do {
            try ProcessTree.launch(process)
        } catch {
            throw Failure.launchFailed(executable: nginx.path, reason: "\(error)")
        }
        try? output?.close()

        let ports = configuration.blocks.map(\.port)
        let timeout = configuration.options.startupTimeout
        let deadline = Date().addingTimeInterval(timeout)
        func logs() -> String {
            let read = { (path: String) in
                (try? String(contentsOfFile: path, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            }
            return [read(configuration.errorLog), read(stderrURL.path)].filter { !$0.isEmpty }
                .joined(separator: "\n")
        }
        while true {
            if !process.isRunning {
                _ = ProcessTree.waitForExit(process, timeout: 1)
                throw Failure.exitedDuringStartup(
                    exitStatus: process.terminationStatus, ports: ports, errorLog: logs())
            }
            // The pid file appears only after every listening socket is bound, so a port that
            // someone else holds is not mistaken for ours.
            if FileManager.default.fileExists(atPath: configuration.pidFile),
                ports.allSatisfy(FreePort.isAccepting)
            {
                return process
            }
            if Date() >= deadline {
                killTree(process.processIdentifier)
                _ = ProcessTree.waitForExit(process, timeout: 5)
                throw Failure.notListening(seconds: timeout, ports: ports, errorLog: logs())
            }
            usleep(20_000)
        }
    }
}
