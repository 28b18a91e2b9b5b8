import Foundation

/// A real browser for tests: Debian's Chromium in headless mode, with a fresh profile and a
/// NetLog that records every URL the page asked for.
///
/// It holds no client certificate; it is the user the local server serves.
public struct HeadlessBrowser: Sendable {
    public struct Visit: Sendable {
        /// The DOM after load (`--dump-dom`).
        public var dom: String
        /// Every URL the browser requested, deduplicated, in first-seen order.
        public var requestedURLs: [String]
        public var exitCode: Int32
        /// The URLs the page itself asked for (its document, subresources, script calls), in
        /// first-seen order: the NetLog's `URL_REQUEST_START_JOB` entries whose initiator is the
        /// page (an origin, or `null` for a file), leaving out the browser's own background
        /// requests (component updates, time, accounts: initiator `not an origin`) and those of
        /// the extensions Debian's wrapper loads.
        public var pageRequestedURLs: [String] = []
    }

    public enum Failure: Error, CustomStringConvertible {
        case notInstalled
        public var description: String { "chromium is not installed (scripts/install-deps.sh installs it)" }
    }

    public let executable: URL

    public init() throws {
        guard let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure.notInstalled
        }
        executable = URL(fileURLWithPath: path)
    }

    /// The URLs of the NetLog's page-initiated requests (see ``Visit/pageRequestedURLs``).
    static func pageRequests(inNetLog data: Data) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let constants = root["constants"] as? [String: Any], let types = constants["logEventTypes"] as? [String: Int],
              let startJob = types["URL_REQUEST_START_JOB"], let events = root["events"] as? [[String: Any]] else { return [] }
        var seen = Set<String>()
        var urls: [String] = []
        for event in events where event["type"] as? Int == startJob {
            guard let params = event["params"] as? [String: Any], let url = params["url"] as? String else { continue }
            let initiator = params["initiator"] as? String ?? ""
            let mainFrame = params["request_type"] as? String == "main frame"
            guard mainFrame || (initiator != "not an origin" && !initiator.hasPrefix("chrome-extension://")) else { continue }
            if seen.insert(url).inserted { urls.append(url) }
        }
        return urls
    }

    /// Loads `url`, waits for the page and its subresources (virtual time), and reports.
    public func visit(_ url: String, budgetMilliseconds: Int = 5000) throws -> Visit {
        let scratch = try TemporaryDirectory()
        let netLog = scratch.url.appendingPathComponent("net.json")
        let runner = CommandRunner(executable: executable)
        let result = runner.run([
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--disable-extensions", "--no-first-run", "--no-default-browser-check",
            "--metrics-recording-only", "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider",
            "--user-data-dir=" + scratch.url.appendingPathComponent("profile").path,
            "--log-net-log=" + netLog.path, "--net-log-capture-mode=Default",
            "--virtual-time-budget=\(budgetMilliseconds)", "--dump-dom", url,
        ], environment: ["HOME": scratch.path], timeout: 90)
        let log = (try? String(contentsOf: netLog, encoding: .utf8)) ?? ""
        var seen = Set<String>()
        var urls: [String] = []
        let pattern = try NSRegularExpression(pattern: #""url":"([^"]+)""#)
        for match in pattern.matches(in: log, range: NSRange(log.startIndex..., in: log)) {
            guard let range = Range(match.range(at: 1), in: log) else { continue }
            let found = String(log[range])
            if seen.insert(found).inserted { urls.append(found) }
        }
        var visit = Visit(dom: result.stdout, requestedURLs: urls, exitCode: result.exitCode)
        visit.pageRequestedURLs = Self.pageRequests(inNetLog: Data(log.utf8))
        return visit
    }
}
