/// Counters describing a frontier, for progress display and reports.
public struct FrontierStats: Sendable, Equatable {
    /// URLs waiting to be fetched.
    public var queued: Int
    /// URLs handed out and not yet completed or failed.
    public var inFlight: Int
    /// URLs fetched successfully.
    public var done: Int
    /// URLs whose fetch failed.
    public var failed: Int
    /// Bytes reported by ``Frontier/complete(_:bytes:)``.
    public var bytes: Int64
    /// Distinct URLs known (queued, fetched, or reached by a redirect).
    public var seen: Int
    /// `.fetch` actions handed out so far.
    public var fetched: Int

    /// Creates a set of counters.
    public init(queued: Int, inFlight: Int, done: Int, failed: Int, bytes: Int64, seen: Int, fetched: Int) {
        self.queued = queued
        self.inFlight = inFlight
        self.done = done
        self.failed = failed
        self.bytes = bytes
        self.seen = seen
        self.fetched = fetched
    }
}
