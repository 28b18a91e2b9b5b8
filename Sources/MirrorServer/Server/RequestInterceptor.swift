/// Answers requests from something other than the snapshot's file tree, before it is looked
/// at: render mode's replay, which answers an application's XHR and fetch calls (by method,
/// URL and, for a POST, body) with the responses recorded while its pages were rendered.
///
/// Called on the event-loop thread for every request to a site that has one: keep it a lookup
/// in memory (and a read of a small file at most).
public protocol RequestInterceptor: Sendable {
    /// The answer for `request`, or nil to serve the snapshot's file as usual (a POST without
    /// an answer gets 405).
    /// - Parameters:
    ///   - site: the site's name.
    ///   - path: the decoded, confined path below the site.
    ///   - request: the request (its raw query, its body for a POST).
    func intercept(site: String, path: RequestPath, request: HTTPRequestHead) -> InterceptResult?
}

/// What a ``RequestInterceptor`` answered.
public enum InterceptResult: Sendable, Equatable {
    /// Serve this file of the snapshot (relative to it; never under `_mirror/`), with this type
    /// (nil: the manifest's, or one guessed from the name).
    case file(relativePath: String, contentType: String?)
    /// Send this response.
    case response(status: Int, headers: HTTPHeaders, body: [UInt8])
}
