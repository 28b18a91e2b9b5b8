#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MirrorCore

/// `scripts/hostile-origin.py` running on a free loopback port: an mTLS origin (client
/// certificates from the test PKI's `client-root.pem` REQUIRED) that serves a small normal site
/// next to crawl traps, redirect loops, unsafe names, oversized and stalling responses, a gzip
/// bomb and malformed documents. The script's header lists every case and its path.
///
/// The initialiser starts `python3` with the shared ``TestPKI`` and returns once the script
/// printed its port (it builds a 1 GiB gzip bomb first: a few seconds). ``stop()`` (also run
/// from `deinit` and at process exit) sends `SIGTERM`, then `SIGKILL`.
///
/// ```swift
/// let origin = try HostileOrigin()
/// let start = origin.url("/")            // https://127.0.0.1:PORT/
/// let normal = HostileOrigin.normalPaths // must be mirrored completely
/// ```
public final class HostileOrigin: Sendable {
    /// Why the origin could not be started.
    public enum Failure: DiagnosableError {
        /// `python3` is not on `PATH` (nor in `/usr/bin`).
        case pythonNotFound
        /// The scratch directory for the logs could not be made.
        case setupFailed(reason: String)
        /// `Process.run()` failed for `executable`.
        case launchFailed(executable: String, reason: String)
        /// The script exited (status `exitStatus`) before it printed a port; `stderr` is its output.
        case exitedDuringStartup(exitStatus: Int32, stderr: String)
        /// No port was printed within `seconds`.
        case noPort(seconds: Int, stderr: String)

        public var category: ErrorCategory { .internal }
        public var summary: String {
            switch self {
            case .pythonNotFound: "python3 not found for scripts/hostile-origin.py"
            case .setupFailed(let reason): "could not prepare the hostile origin: \(reason)"
            case .launchFailed(let executable, let reason): "could not launch \(executable): \(reason)"
            case .exitedDuringStartup(let status, let stderr):
                "scripts/hostile-origin.py exited with status \(status) before listening: \(stderr.suffix(2000))"
            case .noPort(let seconds, let stderr):
                "scripts/hostile-origin.py printed no port within \(seconds) s: \(stderr.suffix(2000))"
            }
        }
        public var hint: String {
            switch self {
            case .pythonNotFound: "install python3 (scripts/install-deps.sh)"
            default: "run scripts/hostile-origin.py --pki DIR by hand to see what fails"
            }
        }
    }

    /// One request the origin answered, from its JSON-lines log.
    public struct Request: Sendable, Hashable {
        /// The request target exactly as sent (path and query), cut at 300 bytes.
        public var target: String
        /// The target's path, cut at 300 bytes.
        public var path: String
        /// The client certificate's common name (empty when none; the origin requires one).
        public var client: String
        /// The status the origin answered with.
        public var status: Int
    }

    /// The paths of the normal site: every one must be in a complete mirror (the start page `/`
    /// included), and the pages among them link only to each other and to these requisites.
    public static let normalPaths = [
        "/", "/normal/", "/normal/a.html", "/normal/b.html", "/normal/sub/c.html",
        "/normal/style.css", "/normal/app.js", "/normal/img/logo.png", "/normal/img/logo-2x.png", "/normal/img/bg.png",
    ]

    /// The path of the 8,000-byte single-segment URL.
    public static let longPath = "/long/" + String(repeating: "a", count: 8000) + ".html"
    /// The path of 30 segments of 250 bytes each (longer than `PATH_MAX` once joined).
    public static let longSegmentsPath = "/longsegs/" + Array(repeating: String(repeating: "b", count: 250), count: 30).joined(separator: "/") + "/end.html"
    /// The path 200 folders deep.
    public static let deepPath = "/deep/" + String(repeating: "level/", count: 200) + "end.html"

    /// The port the origin listens on (127.0.0.1).
    public let port: Int
    /// The PKI whose server certificate the origin presents and whose client root it requires.
    public let pki: TestPKI
    private let logFile: URL
    private let stderrFile: URL
    private let storage: TemporaryDirectory
    private let running: LockedBox<(process: Process, cleanupToken: Int)?>

    /// Starts the origin with the shared test PKI.
    ///
    /// - Parameters:
    ///   - pki: The certificates to present and trust; the shared PKI when `nil`.
    ///   - startupTimeout: Seconds to wait for the port.
    /// - Throws: ``Failure`` when python3 is missing or the script does not come up, and
    ///   ``TestPKI/Failure`` when the PKI cannot be generated.
    public init(pki: TestPKI? = nil, startupTimeout: TimeInterval = 90) throws {
        let pki = try pki ?? TestPKI.shared()
        guard let python = CommandRunner.tool(named: "python3") else { throw Failure.pythonNotFound }
        let script = try RepositoryRoot.locate().appendingPathComponent("scripts/hostile-origin.py")
        let storage: TemporaryDirectory
        do {
            storage = try TemporaryDirectory(prefix: "mtls-mirror-hostile")
        } catch {
            throw Failure.setupFailed(reason: "\(error)")
        }
        let portFile = storage.appending("port")
        let logFile = storage.appending("requests.jsonl")
        let stderrFile = storage.appending("stderr.log")
        guard FileManager.default.createFile(atPath: portFile.path, contents: nil),
              FileManager.default.createFile(atPath: stderrFile.path, contents: nil),
              let out = FileHandle(forWritingAtPath: portFile.path),
              let err = FileHandle(forWritingAtPath: stderrFile.path)
        else { throw Failure.setupFailed(reason: "cannot create files in \(storage.path)") }

        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, "--pki", pki.directory.path, "--port", "0", "--log", logFile.path]
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try ProcessTree.launch(process)
        } catch {
            throw Failure.launchFailed(executable: python.path, reason: "\(error)")
        }
        try? out.close()
        try? err.close()
        let pid = process.processIdentifier
        let storagePath = storage.path
        let token = ExitCleanup.register {
            HostileOrigin.terminate(pid)
            try? FileManager.default.removeItem(atPath: storagePath)
        }
        let port: Int
        do {
            port = try Self.waitForPort(portFile, process: process, stderrFile: stderrFile, timeout: startupTimeout)
        } catch {
            ExitCleanup.unregister(token)
            Self.terminate(pid)
            process.waitUntilExit()
            throw error
        }
        self.port = port
        self.running = LockedBox((process, token))
        self.pki = pki
        self.storage = storage
        self.logFile = logFile
        self.stderrFile = stderrFile
    }

    /// Polls `portFile` until the script wrote a complete line holding its port.
    ///
    /// - Throws: ``Failure/exitedDuringStartup(exitStatus:stderr:)`` or ``Failure/noPort(seconds:stderr:)``.
    private static func waitForPort(_ portFile: URL, process: Process, stderrFile: URL, timeout: TimeInterval) throws(Failure) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n"),
               let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return value
            }
            let stderr = { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }
            if !process.isRunning {
                throw .exitedDuringStartup(exitStatus: process.terminationStatus, stderr: stderr())
            }
            if Date() >= deadline { throw .noPort(seconds: Int(timeout), stderr: stderr()) }
            usleep(50_000)
        }
    }

    deinit { stop() }

    /// `https://127.0.0.1:PORT` followed by `path` (which starts with `/`).
    ///
    /// - Parameters:
    ///   - path: The path and query, already percent-encoded where needed.
    public func url(_ path: String = "/") -> String {
        "https://127.0.0.1:\(port)\(path)"
    }

    /// The origin, `https://127.0.0.1:PORT`, without a trailing slash.
    public var origin: String { "https://127.0.0.1:\(port)" }

    /// Every request answered so far, in order.
    public func requests() -> [Request] {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let target = object["target"] as? String, let path = object["path"] as? String
            else { return nil }
            return Request(target: target, path: path, client: object["client"] as? String ?? "",
                           status: object["status"] as? Int ?? 0)
        }
    }

    /// A new empty folder `name` inside the origin's own temporary directory, removed with it
    /// (also at process exit, for origins kept in `static` properties).
    ///
    /// - Parameters:
    ///   - name: The folder's name; intermediate folders in it are created.
    /// - Throws: The file manager's error when the folder cannot be created.
    public func scratchDirectory(named name: String) throws -> URL {
        let url = storage.appending(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// What the script printed on standard error (Python tracebacks, if any).
    public func errorOutput() -> String {
        (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
    }

    /// Stops the origin: `SIGTERM`, then `SIGKILL` after two seconds. Calling it again does nothing.
    public func stop() {
        guard let (process, token) = running.withLock({ current -> (Process, Int)? in
            defer { current = nil }
            return current.map { ($0.process, $0.cleanupToken) }
        }) else { return }
        ExitCleanup.unregister(token)
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// At process exit: kill at once, nothing can wait any more.
    private static func terminate(_ pid: pid_t) {
        kill(pid, SIGKILL)
    }
}
