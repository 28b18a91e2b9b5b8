import Foundation
import MirrorCore
import MirrorTLS
import Synchronization

/// A fetch that followed redirects and retries: the final response plus what happened on the way.
public struct FetchResult: Sendable {
    public var response: HTTPResponse
    /// Every URL requested, the first one included, in order.
    public var chain: [String]
    /// Attempts made for the final URL (1 when no retry was needed).
    public var attempts: Int
    public var finalURL: String { chain.last ?? response.url }
}

extension HTTPClient {
    /// Fetches a URL, following redirects hop by hop and retrying transient failures.
    ///
    /// Each hop asks `security` for the identity and trust policy of its own host, so the client
    /// identity never follows a redirect out of its scope. Conditional headers are sent only to
    /// the first URL.
    ///
    /// - Parameters:
    ///   - request: the first request.
    ///   - security: identity scope and trust table.
    ///   - redirects: the redirect bounds.
    ///   - retries: when to try again.
    ///   - cookies: a jar whose cookies are sent, and which keeps what the server sets.
    ///   - follow: asked before each redirect hop with the target URL; returning false ends the
    ///     fetch with the 3xx response (the crawler uses it to stay inside its scope).
    ///   - sleep: how to wait between retries (injected for tests).
    /// - Throws: ``HTTPError`` for the first failure that is not retried.
    public func fetch(
        _ request: HTTPRequest,
        security: SecurityPolicy,
        redirects: RedirectPolicy = RedirectPolicy(),
        retries: RetryPolicy = RetryPolicy(),
        cookies: CookieJar? = nil,
        follow: (@Sendable (String) -> Bool)? = nil,
        sleep: @Sendable (TimeInterval) async -> Void = { seconds in
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        }
    ) async throws(HTTPError) -> FetchResult {
        var current = request
        var chain = [request.url]
        while true {
            var attemptRequest = current
            // WebURL, not Foundation's URL: this runs for every request of a crawl.
            if let cookies, !cookies.isEmpty, let parsed = WebURL(current.url),
               let header = cookies.header(host: parsed.host, path: parsed.path, secure: parsed.scheme == "https") {
                attemptRequest.headers.append(("Cookie", header))
            }
            let (response, attempts) = try await performWithRetries(attemptRequest, security: security, retries: retries, sleep: sleep)
            if let cookies, case let setCookie = response.headers.values("Set-Cookie"), !setCookie.isEmpty,
               let parsed = WebURL(current.url) {
                cookies.receive(setCookie: setCookie, host: parsed.host, path: parsed.path)
            }
            guard redirects.follow, let location = response.redirectLocation else {
                return FetchResult(response: response, chain: chain, attempts: attempts)
            }
            let next = try redirects.next(location: location, from: current.url, chain: chain)
            if let follow, !follow(next) {
                return FetchResult(response: response, chain: chain, attempts: attempts)
            }
            chain.append(next)
            current.url = next
            current.ifNoneMatch = nil
            current.ifModifiedSince = nil
        }
    }

    /// Waits for the throttle's leave to start an attempt. On a paced host the request then
    /// reports when it is sent (``HTTPRequest/onSent``), and the returned flag says whether it was.
    private func admit(_ request: inout HTTPRequest, target: RequestTarget) async throws(HTTPError) -> SentFlag? {
        request.onSent = nil
        guard let throttle else { return nil }
        switch await throttle.acquire(host: target.host, port: target.port) {
        case .cancelled:
            throw .cancelled(url: request.url)
        case .started:
            return nil
        case .startedPaced(let ticket):
            let flag = SentFlag(ticket: ticket)
            let host = target.host, port = target.port
            request.onSent = {
                flag.markSent()
                Task { await throttle.sent(host: host, port: port, ticket: ticket) }
            }
            return flag
        }
    }

    private func performWithRetries(
        _ request: HTTPRequest, security: SecurityPolicy, retries: RetryPolicy,
        sleep: @Sendable (TimeInterval) async -> Void
    ) async throws(HTTPError) -> (HTTPResponse, Int) {
        let target = try RequestTarget(request.url, parsed: request.parsedURL)
        let profile = target.isHTTPS ? try security.profile(host: target.host, port: target.port, url: request.url) : nil
        var attempt = 0
        var attempts = 0
        var throttledRetries = 0
        var request = request
        request.byteRate = throttle?.byteRate
        while true {
            attempt += 1
            attempts += 1
            if Task.isCancelled { throw .cancelled(url: request.url) }
            let sent = try await admit(&request, target: target)
            do throws(HTTPError) {
                let response = try await perform(request, profile: profile, target: target)
                if let throttle {
                    let retryAfter = response.headers["Retry-After"].flatMap { RetryPolicy.parseRetryAfter($0, now: Date()) }
                    await throttle.finish(host: target.host, port: target.port, status: response.status,
                                          retryAfter: retryAfter, bytes: response.bodyBytes, paced: sent?.paced)
                    if Politeness.sheddingStatuses.contains(response.status) {
                        // The host sheds load: it backs off (the throttle holds its next start) and
                        // the URL is tried again then, apart from the retries of other errors.
                        let politeness = throttle.politeness
                        guard throttledRetries < politeness.maximumThrottledRetries,
                              (retryAfter ?? 0) <= politeness.maximumRetryAfter else { return (response, attempts) }
                        throttledRetries += 1
                        attempt -= 1
                        continue
                    }
                }
                if let wait = retries.delay(afterAttempt: attempt, status: response.status, error: nil,
                                            retryAfter: response.headers["Retry-After"]) {
                    await sleep(wait)
                    continue
                }
                return (response, attempts)
            } catch {
                await throttle?.finish(host: target.host, port: target.port, status: nil, retryAfter: nil, bytes: 0,
                                       paced: sent?.paced)
                guard let wait = retries.delay(afterAttempt: attempt, status: nil, error: error, retryAfter: nil) else {
                    throw error
                }
                await sleep(wait)
            }
        }
    }
}

/// Whether a paced attempt was sent: set on the engine's thread, read after the attempt ended.
private final class SentFlag: Sendable {
    /// The throttle's number for the attempt.
    let ticket: UInt64
    private let value = Atomic<Bool>(false)
    init(ticket: UInt64) { self.ticket = ticket }
    var paced: (ticket: UInt64, wasSent: Bool) { (ticket, wasSent) }
    var wasSent: Bool { value.load(ordering: .acquiring) }
    func markSent() { value.store(true, ordering: .releasing) }
}
