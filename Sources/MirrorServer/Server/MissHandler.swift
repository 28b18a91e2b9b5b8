/// Answers requests for files the mirror does not have (the hook for live mode).
///
/// Called from a Swift `Task`, never on the event-loop thread; the connection waits (its later
/// pipelined requests too) until the result is handed back to the loop.
public protocol MissHandler: Sendable {
    /// Produces a response for a path that is not in the snapshot.
    /// - Parameters:
    ///   - site: the site's name.
    ///   - path: the decoded path below the site, starting with `/`.
    ///   - request: the request head.
    func handleMiss(site: String, path: String, request: HTTPRequestHead) async -> MissResult

    /// Whether a file the snapshot has should be fetched again before it is served (live
    /// mode's `--max-age`). Called on the event-loop thread for every file served: keep it a
    /// cheap lookup. A `true` answer hands the request to ``handleMiss(site:path:request:)``.
    func isStale(site: String, path: String) -> Bool
}

extension MissHandler {
    public func isStale(site: String, path: String) -> Bool { false }
}

/// What a ``MissHandler`` decided.
public enum MissResult: Sendable, Equatable {
    /// Answer with the ordinary "not in the mirror" page.
    case notFound
    /// Answer with this response (`Content-Length` is added; the security headers too).
    case response(status: Int, headers: HTTPHeaders, body: [UInt8])
    /// The handler stored the file: answer the request again from the snapshot (with ranges,
    /// validators and the usual headers). A second miss then answers "not found".
    case retry
}
