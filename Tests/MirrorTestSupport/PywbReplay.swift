#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// pywb replaying WARC files: `wb-manager init COLL`, `wb-manager add COLL FILE…`, then
/// `wayback -p PORT -b 127.0.0.1` in a scratch folder, on a free loopback port, with
/// `framed_replay: false` (a page is replayed as the top document, not inside pywb's frame).
///
/// ``stop()`` ends it (SIGTERM, then SIGKILL) and returns what it printed, which holds its access
/// log: one line per request with the status, so a test can count failed requests.
public final class PywbReplay: @unchecked Sendable {
    public let port: UInt16
    public let collection: String
    private let scratch: TemporaryDirectory
    private let process: Process
    private let log: URL

    /// Why pywb could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// - Parameters:
    ///   - warcs: the WARC files to add to the collection.
    ///   - collection: the collection's name.
    /// - Throws: ``PythonTools/Missing`` without the venv, ``Failure`` when a step fails or pywb
    ///   does not listen within 30 seconds.
    public init(warcs: [String], collection: String = "archive") throws {
        scratch = try TemporaryDirectory(prefix: "pywb")
        self.collection = collection
        let manager = try PythonTools.runner("wb-manager", in: scratch.url)
        let initialised = manager.run(["init", collection], timeout: 60)
        guard initialised.succeeded else { throw Failure(description: "wb-manager init failed: \(initialised)") }
        let added = manager.run(["add", collection] + warcs, timeout: 120)
        guard added.succeeded else { throw Failure(description: "wb-manager add failed: \(added)") }
        try "framed_replay: false\n".write(to: scratch.url.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        port = try FreePort.reserve()
        log = scratch.url.appendingPathComponent("wayback.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = try PythonTools.tool("wayback")
        process.arguments = ["-p", String(port), "-b", "127.0.0.1"]
        process.currentDirectoryURL = scratch.url
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try ProcessTree.launch(process)
        try? output.close()
        let deadline = Date().addingTimeInterval(30)
        while !FreePort.isAccepting(port) {
            guard process.isRunning, Date() < deadline else {
                let log = stop()
                let hint = log.contains("DistributionNotFound")
                    ? " (run scripts/install-deps.sh: it pins the zope.interface and zope.event that gevent's pkg_resources can find)" : ""
                throw Failure(description: "wayback did not listen on \(port)\(hint): \(log.suffix(2000))")
            }
            usleep(50_000)
        }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/COLL/` followed by `path` (e.g. `20261201000000/https://host/page.html`).
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(collection)/\(path)" }

    /// What pywb printed so far.
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Stops pywb and returns what it printed.
    @discardableResult
    public func stop() -> String {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        return logText
    }

    /// The requests in pywb's access log: `"GET /target HTTP/1.1" STATUS`.
    public static func requests(in log: String) -> [(target: String, status: Int)] {
        log.split(separator: "\n").compactMap { line in
            guard let quote = line.range(of: "\"GET "), let end = line.range(of: " HTTP/", range: quote.upperBound..<line.endIndex)
            else { return nil }
            let rest = line[end.upperBound...].split(separator: " ")
            guard rest.count >= 2, let status = Int(rest[1]) else { return nil }
            return (String(line[quote.upperBound..<end.lowerBound]), status)
        }
    }
}
