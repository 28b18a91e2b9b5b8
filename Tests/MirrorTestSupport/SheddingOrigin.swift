import Foundation

/// `scripts/shedding-origin.py`: an mTLS origin that answers every N-th request with
/// `429 Too Many Requests` and `Retry-After`, and logs every request with its arrival time.
///
/// ```swift
/// let origin = try SheddingOrigin(site: siteFolder, every: 4)
/// // mirror origin.url("/") …
/// let shed = origin.requests().filter { $0.status == 429 }
/// ```
public final class SheddingOrigin: Sendable {
    /// One logged request.
    public struct Request: Sendable, Equatable {
        public var time: Double
        public var path: String
        public var status: Int
        public var client: String
    }

    /// Why the origin could not start.
    public struct Failure: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "shedding origin: \(reason) (run scripts/install-deps.sh: it installs python3)" }
    }

    public let port: Int
    public let pki: TestPKI
    private let storage: TemporaryDirectory
    private let logFile: URL
    private let running: LockedBox<(process: Process, cleanupToken: Int)?>

    /// Starts the origin over the files of `site`.
    ///
    /// - Parameters:
    ///   - site: the folder served as `/`.
    ///   - every: every N-th request gets 429 (0: never).
    ///   - retryAfter: the `Retry-After` value sent with it.
    ///   - pki: the certificates; the shared test PKI when nil.
    /// - Throws: ``Failure`` when python3 is missing or the script does not report its port.
    public init(site: URL, every: Int = 4, retryAfter: String = "1", pki: TestPKI? = nil) throws {
        let pki = try pki ?? TestPKI.shared()
        guard let python = CommandRunner.tool(named: "python3") else { throw Failure(reason: "python3 not found") }
        let script = try RepositoryRoot.locate().appendingPathComponent("scripts/shedding-origin.py")
        storage = try TemporaryDirectory(prefix: "mtls-mirror-shedding")
        let portFile = storage.appending("port")
        logFile = storage.appending("requests.jsonl")
        _ = FileManager.default.createFile(atPath: portFile.path, contents: nil)
        guard let out = FileHandle(forWritingAtPath: portFile.path) else { throw Failure(reason: "cannot create \(portFile.path)") }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, "--pki", pki.directory.path, "--root", site.path, "--log", logFile.path,
                             "--every", "\(every)", "--retry-after", retryAfter]
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try ProcessTree.launch(process)
        try? out.close()
        let pid = process.processIdentifier
        let token = ExitCleanup.register { kill(pid, SIGKILL) }
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n") {
                found = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                usleep(50_000)
            }
        }
        guard let found else {
            ExitCleanup.unregister(token)
            kill(pid, SIGKILL)
            throw Failure(reason: "the script did not report its port")
        }
        port = found
        self.pki = pki
        running = LockedBox((process, token))
    }

    deinit { stop() }

    /// `https://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String = "/") -> String { "https://127.0.0.1:\(port)\(path)" }

    /// Every request logged so far, in arrival order.
    public func requests() -> [Request] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let time = object["time"] as? Double, let path = object["path"] as? String, let status = object["status"] as? Int
            else { return nil }
            return Request(time: time, path: path, status: status, client: object["client"] as? String ?? "")
        }
    }

    /// Stops the origin.
    public func stop() {
        guard let (process, token) = running.take() else { return }
        ExitCleanup.unregister(token)
        ProcessTree.stop(process, signal: SIGTERM, timeout: 2)
    }
}
