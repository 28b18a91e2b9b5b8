#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A real Apache httpd that asks for the client certificate only under `/secure/`, the way
/// many back offices are set up (`SSLVerifyClient require` inside a `<Location>`).
///
/// The connection starts without a client certificate, so a request for `/secure/…` makes
/// the server ask for one on the running connection: over TLS 1.3 with post-handshake
/// authentication, over TLS 1.2 with a renegotiation. Neither is allowed on HTTP/2, so Apache
/// answers such a request on HTTP/2 with `HTTP_1_1_REQUIRED` and the client must retry it on
/// HTTP/1.1. nginx cannot be set up this way, hence this second fixture.
///
/// Apache runs in the foreground (`-DFOREGROUND`) from a private temporary prefix on a free
/// loopback port, speaks HTTP/2 and HTTP/1.1, presents the shared test PKI's server
/// certificate, and trusts its client CA. ``stop()`` (also run from `deinit` and at process
/// exit) sends `SIGTERM`, then `SIGKILL` to the whole tree.
public final class ApacheFixture: Sendable {
    /// The TLS version the server allows: the one it then uses to ask for the certificate.
    public enum TLSVersion: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Post-handshake authentication.
        case tls13 = "TLSv1.3"
        /// Renegotiation.
        case tls12 = "TLSv1.2"

        public var description: String { rawValue }
    }

    /// Why Apache did not come up.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The PKI whose certificates the server presents and trusts.
    public let pki: TestPKI
    /// The loopback port it listens on.
    public let port: UInt16
    /// The docroot: `/` is public, `/secure/` needs a client certificate.
    public let docroot: URL

    private let storage: TemporaryDirectory
    private let accessLogPath: String
    private let running: LockedBox<(process: Process, cleanupToken: Int)?>

    /// Starts Apache allowing only `version`.
    ///
    /// - Parameters:
    ///   - version: The one TLS version the server allows.
    ///   - pki: The certificates to present and trust.
    /// - Throws: ``Failure`` when `apache2` (Debian's `apache2-bin`) is not installed or does
    ///   not start listening within 10 seconds; the message holds its error log.
    public init(version: TLSVersion, pki: TestPKI) throws {
        guard let apache = CommandRunner.tool(named: "apache2") ?? CommandRunner.tool(named: "httpd") else {
            throw Failure(description: "apache2 is not installed (Debian: apt-get install apache2-bin)")
        }
        let storage = try TemporaryDirectory(prefix: "mtls-mirror-apache")
        let prefix = storage.url
        let docroot = prefix.appendingPathComponent("html", isDirectory: true)
        let logs = prefix.appendingPathComponent("logs", isDirectory: true)
        for folder in [docroot, docroot.appendingPathComponent("secure"), logs] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        // The workers run as www-data when the tests run as root; they read the docroot.
        for path in [prefix.path, docroot.path, docroot.appendingPathComponent("secure").path] {
            _ = chmod(path, 0o755)
        }
        let port = FreePort.allocate()
        let conf = prefix.appendingPathComponent("httpd.conf")
        let errorLog = logs.appendingPathComponent("error.log").path
        let accessLog = logs.appendingPathComponent("access.log").path
        let pidFile = prefix.appendingPathComponent("httpd.pid").path
        let modules = Self.modulesDirectory(of: apache)
        var lines = [
            "ServerRoot \(prefix.path)",
            "ServerName localhost",
            "PidFile \(pidFile)",
            "DefaultRuntimeDir \(prefix.path)",
            "Listen 127.0.0.1:\(port)",
        ]
        lines += ["mpm_event", "authz_core", "mime", "dir", "ssl", "http2"].map {
            "LoadModule \($0)_module \(modules)/mod_\($0).so"
        }
        if geteuid() == 0 { lines += ["User www-data", "Group www-data"] }
        lines += [
            "TypesConfig /dev/null",
            "AddType text/html .html",
            "AddType image/png .png",
            "ErrorLog \(errorLog)",
            "LogLevel warn",
            #"LogFormat "%{SSL_PROTOCOL}x %H \"%r\" %>s %{SSL_CLIENT_S_DN_CN}x" client"#,
            "CustomLog \(accessLog) client",
            "DocumentRoot \(docroot.path)",
            "DirectoryIndex index.html",
            "<Directory \(docroot.path)>",
            "  Require all granted",
            "</Directory>",
            "<VirtualHost 127.0.0.1:\(port)>",
            "  Protocols h2 http/1.1",
            "  SSLEngine on",
            "  SSLProtocol -all +\(version.rawValue)",
            "  SSLCertificateFile \(pki.path("server-chain.pem"))",
            "  SSLCertificateKeyFile \(pki.path("server.key"))",
            "  SSLCACertificateFile \(pki.path("client-root.pem"))",
            "  SSLVerifyClient none",
            "  <Location /secure/>",
            "    SSLVerifyClient require",
            "    SSLVerifyDepth 2",
            "  </Location>",
            "</VirtualHost>",
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: conf)
        try Data().write(to: URL(fileURLWithPath: accessLog))

        let process = Process()
        process.executableURL = apache
        process.arguments = ["-f", conf.path, "-DFOREGROUND"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ProcessTree.launch(process)
        let pid = process.processIdentifier
        let prefixPath = prefix.path
        let token = ExitCleanup.register {
            ProcessTree.signalTree(pid, SIGKILL)
            try? FileManager.default.removeItem(atPath: prefixPath)
        }
        self.running = LockedBox((process, token))
        self.pki = pki
        self.port = port
        self.docroot = docroot
        self.storage = storage
        self.accessLogPath = accessLog

        let deadline = Date().addingTimeInterval(10)
        while !(FileManager.default.fileExists(atPath: pidFile) && FreePort.isAccepting(port)) {
            if !process.isRunning || Date() >= deadline {
                stop()
                let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
                throw Failure(description: "apache2 did not start listening on 127.0.0.1:\(port): \(log)")
            }
            usleep(20_000)
        }
    }

    deinit {
        stop()
    }

    /// `https://localhost:PORT/path`.
    public func url(_ path: String) -> String {
        "https://localhost:\(port)" + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// Writes a file under the docroot, readable by the server's workers.
    public func write(_ relativePath: String, _ contents: Data) throws {
        let url = docroot.appendingPathComponent(relativePath)
        try contents.write(to: url)
        _ = chmod(url.path, 0o644)
    }

    /// The access log so far, a line per request: TLS protocol (`-` without TLS), HTTP
    /// protocol, request line in quotes, status, the client certificate's CN (`-` without one).
    ///
    /// Apache writes a line when a request is done, so the caller may need to wait a moment
    /// after its last response.
    public func accessLog() -> [String] {
        ((try? String(contentsOfFile: accessLogPath, encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Stops the server and its workers; calling it again does nothing.
    public func stop() {
        guard let (process, token) = running.take() else { return }
        ExitCleanup.unregister(token)
        // On SIGTERM the parent stops its workers before it exits.
        ProcessTree.stop(process, signal: SIGTERM, timeout: 5)
    }

    /// Debian keeps the modules in `/usr/lib/apache2/modules`, other layouts next to the binary.
    private static func modulesDirectory(of apache: URL) -> String {
        let candidates = ["/usr/lib/apache2/modules", "/usr/lib64/httpd/modules", "/usr/lib/httpd/modules",
                          apache.deletingLastPathComponent().deletingLastPathComponent().path + "/modules"]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/mod_ssl.so") } ?? candidates[0]
    }
}
