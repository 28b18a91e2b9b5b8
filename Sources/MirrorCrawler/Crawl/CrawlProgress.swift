import Foundation
import MirrorCore

/// Live progress: a rewritten status line on a terminal, a plain log line every few seconds
/// otherwise, nothing with `--quiet`.
public final class CrawlProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let logger: Logger
    private let tty: Bool
    private let started = Date()
    private var lastLine = Date.distantPast
    private var shown = false
    private let site: String

    public init(site: String, logger: Logger, fileDescriptor: Int32 = 2) {
        self.site = site
        self.logger = logger
        tty = Terminal.isTTY(fileDescriptor) && logger.format == .text
    }

    private var lastUpdate = Date.distantPast

    /// Whether an update is due (at most five a second).
    func due() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastUpdate) >= 0.2 else { return false }
        lastUpdate = now
        return true
    }

    func update(_ stats: FrontierStats, failed: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let elapsed = max(0.001, now.timeIntervalSince(started))
        let rate = Double(stats.bytes) / elapsed
        let done = Double(stats.done)
        let remaining = Double(stats.queued + stats.inFlight)
        let eta = done > 0 ? remaining / (done / elapsed) : 0
        let line = "\(site): \(stats.done) done, \(stats.queued) queued, \(stats.inFlight) in flight, "
            + NumberText.byteCount(stats.bytes)
            + " (" + NumberText.byteCount(Int64(rate)) + "/s), "
            + "\(failed) errors, ETA \(Int(eta))s"
        if tty {
            Terminal.write("\r\u{1B}[K" + line, to: 2)
            shown = true
        } else if now.timeIntervalSince(lastLine) >= 5 {
            lastLine = now
            logger.info(line)
        }
    }

    func phase(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if tty { Terminal.write("\r\u{1B}[K\(site): \(text)…", to: 2); shown = true }
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if tty && shown { Terminal.write("\r\u{1B}[K", to: 2) }
    }
}
