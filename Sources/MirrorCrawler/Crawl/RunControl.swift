import Foundation

/// Lets the caller of a crawl ask it to stop early without aborting it: a first SIGINT or
/// SIGTERM. The crawl then starts no new transfer, gives those in flight a short grace
/// (``CrawlLimits/stopGrace``), and publishes what it has (a refresh carries the previous copy
/// of what it did not reach over). Aborting, with nothing published, is cancelling the task.
///
/// One control may serve several crawls (the sites of a config run one after another): a stop
/// asked for once applies to every crawl that attaches later, too.
public final class RunControl: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: FinishReason?

    public init() {}

    /// Asks every attached crawl to stop early. The first reason given is kept.
    /// - Parameter reason: ``FinishReason/interrupted`` (a signal) or ``FinishReason/runTimeLimit``.
    public func halt(_ reason: FinishReason = .interrupted) {
        lock.withLock { if self.reason == nil { self.reason = reason } }
    }

    /// The reason a stop was asked for with, or nil.
    public var haltReason: FinishReason? { lock.withLock { reason } }
}
