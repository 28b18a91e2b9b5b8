import Foundation
import MirrorCore
import MirrorTLS

/// The one async HTTP API of mtls-mirror, over libcurl.
///
/// Each ``TLSProfile`` (client identity + trust evaluator) gets its own ``CurlMultiEngine``:
/// its own thread, connection pool and TLS session cache. A connection opened under one
/// identity or policy is therefore never reused for another. Plain `http://` requests share
/// one engine with no profile.
///
/// Call ``shutdown()`` before the process exits: it stops the engine threads and waits for them,
/// so that libcurl and OpenSSL are not torn down under a running transfer.
public final class HTTPClient: Sendable {
    public struct Configuration: Sendable {
        /// Concurrent connections to one host, per profile (CURLMOPT_MAX_HOST_CONNECTIONS).
        public var maxConnectionsPerHost: Int
        /// Concurrent connections in all, per profile (CURLMOPT_MAX_TOTAL_CONNECTIONS).
        public var maxTotalConnections: Int
        /// Whether requests go through a proxy; ``ProxySettings/direct`` (the default) also
        /// switches off libcurl's reading of `https_proxy` and its kin.
        public var proxy: ProxySettings
        /// Pacing, byte rate and back-off per host (``HostThrottle``); nil: none (429/503 are
        /// then retried as ``RetryPolicy`` says, like any other error status).
        public var politeness: Politeness?
        /// Which HTTP version the requests over TLS ask for (``HTTPVersionPreference``).
        public var httpVersion: HTTPVersionPreference
        public init(maxConnectionsPerHost: Int = 8, maxTotalConnections: Int = 32, proxy: ProxySettings = .direct,
                    politeness: Politeness? = nil, httpVersion: HTTPVersionPreference = .automatic) {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxTotalConnections = maxTotalConnections
            self.proxy = proxy
            self.politeness = politeness
            self.httpVersion = httpVersion
        }
    }

    private let configuration: Configuration
    private let state = LockedState()
    /// The per-host throttle every ``fetch(_:security:redirects:retries:cookies:follow:sleep:)``
    /// consults, when the configuration asks for politeness.
    public let throttle: HostThrottle?

    private final class LockedState: @unchecked Sendable {
        let lock = NSLock()
        /// By profile object (nil: plain http): each profile gets its own pools, even when
        /// its parts equal another's. The engine keeps its profile alive, so the key stays unique.
        var engines: [ObjectIdentifier?: CurlMultiEngine] = [:]
        var nextID: UInt64 = 1
        var closed = false
        /// The most transfers a caller announced (``expectTransfers(_:)``).
        var expectedTransfers = 0
    }

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        throttle = configuration.politeness.map { HostThrottle(politeness: $0) }
    }

    /// Which proxy this client's requests use, in one line (for reports and logs).
    public var proxySummary: String { configuration.proxy.summary }

    /// Performs one request (no redirects followed, no retries).
    ///
    /// - Parameters:
    ///   - request: what to fetch.
    ///   - profile: the identity and trust policy for an `https` URL; ignored for `http`.
    /// - Returns: the response, whatever its status, except nginx's "client certificate
    ///   required/refused" 400 pages, which become ``HTTPError/clientCertificateRejected(url:identitySent:detail:)``.
    /// - Throws: ``HTTPError`` naming the cause.
    public func perform(_ request: HTTPRequest, profile: TLSProfile?) async throws(HTTPError) -> HTTPResponse {
        try await perform(request, profile: profile, target: try RequestTarget(request.url))
    }

    /// ``perform(_:profile:)`` with the URL already parsed (`target`, from `request.url`).
    func perform(_ request: HTTPRequest, profile: TLSProfile?, target: RequestTarget) async throws(HTTPError) -> HTTPResponse {
        let effectiveProfile = target.isHTTPS ? profile : nil
        if target.isHTTPS && effectiveProfile == nil {
            throw .invalidURL(request.url, reason: "an https URL needs a trust policy")
        }
        let engine = try engine(for: effectiveProfile)
        let id = nextTransferID()
        let capture = request.capture.map(TransferCapture.init)
        var result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                do throws(HTTPError) {
                    let transfer = CurlTransfer(
                        id: id, handle: try engine.takeHandle(request.url), request: request, host: target.host, port: target.port,
                        profile: effectiveProfile, proxy: configuration.proxy.endpoint(isHTTPS: target.isHTTPS),
                        capture: capture, continuation: continuation)
                    engine.submit(transfer)
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            engine.cancel(id)
        }
        // The transfer set the capture before it resumed the continuation.
        if let recorded = capture?.result {
            if let recorder = request.capture?.recorder {
                await recorder.record(recorded)
            } else if case .success(var response) = result {
                response.capture = recorded
                result = .success(response)
            } else {
                recorded.payload.discardSpoolFile()
            }
        }
        return try result.get()
    }

    /// Polls, over all engines, that waited a whole second while transfers were in flight:
    /// 0 against a server that answers at once (see ``CurlMultiEngine/stalledPolls``).
    var stalledPolls: Int {
        state.lock.lock()
        let engines = Array(state.engines.values)
        state.lock.unlock()
        return engines.reduce(0) { $0 + $1.stalledPolls }
    }

    /// How many transfers the client's engines keep in flight now, together
    /// (``CurlMultiEngine/transferWindow``): `Int.max` before any engine has seen a transfer
    /// end. The crawl holds its workers to this plus a margin.
    public var transferWindow: Int {
        state.lock.lock()
        defer { state.lock.unlock() }
        if state.engines.isEmpty { return .max }
        var total = 0
        for engine in state.engines.values {
            let (sum, overflow) = total.addingReportingOverflow(engine.transferWindow)
            if overflow { return .max }
            total = sum
        }
        return total
    }

    /// Announces that about `count` transfers are coming (a refresh: its previous snapshot's
    /// URLs; a crawl: the URLs it has found so far). On a near link an engine moves to HTTP/1.1
    /// only for a run of many transfers (``NearLinkSwitch``); told this, it moves as soon as the
    /// link shows it is near, instead of after the first ``NearLinkSwitch/minimumTransfers``.
    public func expectTransfers(_ count: Int) {
        state.lock.lock()
        state.expectedTransfers = max(state.expectedTransfers, count)
        let engines = Array(state.engines.values)
        state.lock.unlock()
        for engine in engines { engine.expectTransfers(count) }
    }

    /// Reset easy handles kept for the next transfers, over all engines
    /// (``CurlMultiEngine/idleHandleCount``).
    var idleHandleCount: Int {
        state.lock.lock()
        let engines = Array(state.engines.values)
        state.lock.unlock()
        return engines.reduce(0) { $0 + $1.idleHandleCount }
    }

    /// Starts closing every connection and stops taking requests, without waiting: the
    /// engines' threads close and free their connections while the caller goes on. Later
    /// requests fail as cancelled. ``shutdown()`` still has to be called; it then waits for
    /// what is left.
    public func beginShutdown() {
        for engine in closeToRequests() { engine.beginShutdown() }
    }

    /// Stops every engine thread and waits for them. Later requests fail as cancelled.
    /// Calling it again (or after ``beginShutdown()``) is harmless.
    public func shutdown() {
        for engine in closeToRequests() { engine.shutdown() }
    }

    /// Makes later requests fail as cancelled, and returns the engines.
    private func closeToRequests() -> [CurlMultiEngine] {
        state.lock.lock()
        defer { state.lock.unlock() }
        state.closed = true
        return Array(state.engines.values)
    }

    private func nextTransferID() -> UInt64 {
        state.lock.lock()
        defer { state.lock.unlock() }
        state.nextID += 1
        return state.nextID
    }

    private func engine(for profile: TLSProfile?) throws(HTTPError) -> CurlMultiEngine {
        let key = profile.map(ObjectIdentifier.init)
        state.lock.lock()
        defer { state.lock.unlock() }
        if state.closed { throw .cancelled(url: "") }
        if let engine = state.engines[key] { return engine }
        let engine = try CurlMultiEngine(
            profile: profile,
            limits: .init(maxConnectionsPerHost: configuration.maxConnectionsPerHost,
                          maxTotalConnections: configuration.maxTotalConnections, httpVersion: configuration.httpVersion))
        engine.expectTransfers(state.expectedTransfers)
        state.engines[key] = engine
        return engine
    }
}

/// Scheme, host and port of a request URL, checked before anything is sent.
struct RequestTarget {
    let isHTTPS: Bool
    let host: String
    let port: Int

    /// Parses with ``WebURL``, the parser the crawler's scope checks use, so that the host
    /// the identity scope is checked against is the host the crawler decided on.
    /// - Parameter known: `url` parsed already, used when its text is `url`.
    init(_ url: String, parsed known: WebURL? = nil) throws(HTTPError) {
        let parsed: WebURL
        do {
            if let known, known.string == url { parsed = known } else { parsed = try WebURL.parse(url) }
        } catch .unsupportedScheme(let scheme) {
            throw .invalidURL(url, reason: "unsupported scheme \"\(scheme)\"")
        } catch .emptyHost {
            throw .invalidURL(url, reason: "the URL has no host")
        } catch {
            throw .invalidURL(url, reason: "not a valid absolute URL")
        }
        isHTTPS = parsed.scheme == "https"
        var host = Substring(parsed.host)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        self.host = String(host)
        port = parsed.effectivePort
    }}
