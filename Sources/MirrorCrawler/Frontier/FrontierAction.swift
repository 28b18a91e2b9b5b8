/// What the crawl loop should do next, as decided by ``Frontier/next()``.
public enum FrontierAction: Sendable, Equatable {
    /// Fetch this item, then report it with ``Frontier/complete(_:bytes:)`` or
    /// ``Frontier/fail(_:)``.
    case fetch(FrontierItem)
    /// Nothing can start now, but fetches are in flight: wait for one to finish, then ask again.
    case wait
    /// The crawl is over: nothing is queued or in flight (or a limit or cancellation stopped
    /// it after everything in flight finished). Every later call returns the same.
    case finished(FinishReason)
}

/// Why a crawl ended.
///
/// The raw value, the case's name, is what `report.json` records as `finishReason`; it is read
/// as `rawValue` rather than through `String(describing:)`, whose reflection cost the end of
/// every run about 1 ms of scans of the runtime's conformance tables.
public enum FinishReason: String, Sendable, Equatable {
    /// Every in-scope URL was fetched.
    case exhausted
    /// ``FrontierLimits/maxPages`` URLs were fetched and more were queued.
    case pageLimit
    /// ``FrontierLimits/maxBytes`` were downloaded and more URLs were queued.
    case byteLimit
    /// ``Frontier/cancel()`` was called.
    case cancelled
    /// The run's time budget ran out (``Frontier/halt(_:)``); what was queued is not fetched.
    case runTimeLimit
    /// The run was asked to stop (a first SIGINT or SIGTERM, ``Frontier/halt(_:)``); what was
    /// queued is not fetched.
    case interrupted

    /// True when the run stopped before it had fetched everything it found (a limit, a
    /// budget, a signal).
    public var isEarly: Bool { self != .exhausted }
}
