import Foundation
import MirrorCore
import MirrorHTTP
import MirrorRender
import MirrorStore

/// Answers the requests of one page that render mode loads, with the crawl's own engine:
/// the same ``HTTPClient``, scope, identity scope and trust policy (``SecurityPolicy``, host by
/// host, redirect by redirect), cookie jar, limits and robots.txt rules as the crawl.
///
/// - The page's document is answered with the copy the crawl fetched.
/// - A request on a crawled origin goes out with the client certificate; one on a requisite
///   host without it (the security policy decides); anything else, and any method but GET,
///   HEAD and POST, and beacons, is refused and listed in the report.
/// - Every GET answer the page got is stored in the snapshot with its manifest row (claimed
///   from the frontier, so it is fetched once), a POST answer under `_mirror/replay/`, and
///   each exchange is recorded as one of the page's dependencies (``RenderRecord``).
/// - Redirects are handed to the browser, which asks again for the target (each hop paused,
///   each hop's identity decided again).
struct RenderBroker: RenderRequestHandler {
    let crawler: Crawler
    let rendering: Rendering
    let run: Rendering.Run
    let page: FrontierItem
    let documentURL: WebURL
    let document: HTTPResponse
    let documentBody: [UInt8]
    let recording: PageRecording

    /// Request headers the page's own are never passed on: the engine sets these itself
    /// (`Host`, encodings, cookies from the crawl's jar, the crawl's User-Agent), and a
    /// conditional or partial request would leave the snapshot without the whole body.
    static let withheldRequestHeaders: Set<String> = [
        "host", "cookie", "connection", "content-length", "accept-encoding", "user-agent", "if-none-match",
        "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range", "upgrade-insecure-requests",
        "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "keep-alive",
    ]

    /// Kinds of request that carry nothing a page shows: never sent.
    static let refusedResourceTypes: Set<String> = ["Ping", "CSPViolationReport", "WebSocket", "Prefetch", "SignedExchange"]

    func answer(_ request: InterceptedRequest) async -> InterceptedAnswer {
        if request.isPageDocument {
            return .fulfil(status: document.status, headers: Self.fields(document.headers), body: documentBody)
        }
        guard let url = WebURL(request.url)?.withoutFragment, url.scheme == "http" || url.scheme == "https" else {
            return await refuse(request.url, "not an http(s) URL")
        }
        if Self.refusedResourceTypes.contains(request.resourceType) {
            return await refuse(url.string, "a \(request.resourceType) request, never sent while rendering")
        }
        let method: HTTPRequest.Method
        switch request.method {
        case "GET": method = .get
        case "HEAD": method = .head
        case "POST": method = .post
        default: return await refuse(url.string, "the \(request.method) method is never sent while rendering")
        }
        switch crawler.scope.classify(url, isRequisite: true, depth: page.depth) {
        case .page, .requisite: break
        case .outOfScope(let reason), .excluded(let reason):
            await run.state.noteOutOfScope(url)
            return await refuse(url.string, "out of scope: \(reason)")
        case .tooDeep:
            return await refuse(url.string, "out of scope")
        }
        if let agent = run.robotsAgent, crawler.scope.isPrimaryOrigin(url), !(await run.state.robotsAllow(url, userAgent: agent)) {
            return await refuse(url.string, "disallowed by robots.txt")
        }
        if method == .get, !request.isFrameDocument, let cached = rendering.cache.entry(for: url.string) {
            recording.add(.init(method: "GET", url: url.string, status: cached.status, sha256: cached.sha256, etag: cached.etag,
                                lastModified: cached.lastModified))
            return .fulfil(status: cached.status, headers: cached.headers, body: cached.body)
        }
        return await fetch(url, method: method, request: request)
    }

    private func fetch(_ url: WebURL, method: HTTPRequest.Method, request: InterceptedRequest) async -> InterceptedAnswer {
        let job = crawler.job
        var outgoing = HTTPRequest(
            url: url.string, method: method, headers: job.headers, destination: .memory,
            maxBodyBytes: min(job.limits.maxFileSize, max(0, request.maximumBodyBytes)),
            maxDecompressionRatio: job.limits.maxDecompressionRatio, timeouts: job.limits.timeouts, userAgent: job.userAgent)
        outgoing.parsedURL = url
        outgoing.capture = job.capture  // archive output records the browser's requests too
        outgoing.body = method == .post ? (request.body ?? []) : nil
        for field in request.headers where !Self.withheldRequestHeaders.contains(field.name.lowercased()) {
            guard !outgoing.headers.contains(where: { $0.name.lowercased() == field.name.lowercased() }) else { continue }
            outgoing.headers.append((field.name, field.value))
        }
        var redirects = job.redirects
        redirects.follow = false
        let requestSHA = request.body.map { SHA256Digest.hex($0) }
        let keptBody = method == .post ? request.body.flatMap {
            $0.count <= RenderRecord.largestKeptBody ? Data($0).base64EncodedString() : nil
        } : nil
        let result: FetchResult
        do {
            result = try await crawler.client.fetch(
                outgoing, security: crawler.security, redirects: redirects, retries: method == .post ? .none : job.retries,
                cookies: job.cookies)
        } catch {
            await run.ledger.requestFailed()
            recording.add(.init(method: method.rawValue, url: url.string, requestSHA256: requestSHA, requestBody: keptBody, status: 0))
            if case .timeout = error { return .fail(.timedOut) }
            if case .clientCertificateRejected = error { return .fail(.accessDenied) }
            return .fail(.failed)
        }
        let response = result.response
        recording.add(.init(
            method: method.rawValue, url: url.string, requestSHA256: requestSHA, requestBody: keptBody, status: response.status,
            sha256: response.sha256,
            etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"], location: response.redirectLocation))
        let headers = Self.fields(response.headers)
        let success = (200...299).contains(response.status)
        if request.isFrameDocument {
            // Stored after the page, with the frame's rendered DOM when it was readable.
            if success, method == .get { recording.addFrameDocument(url: url, response: response) }
        } else if success, method == .get {
            if !(response.headers["Cache-Control"]?.lowercased().contains("no-store") ?? false) {
                rendering.cache.insert(.init(status: response.status, headers: headers, body: response.body, sha256: response.sha256,
                                             etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"]),
                                       for: url.string)
            }
            await crawler.storeClaimed(url, response: response, page: page, run: run)
        } else if method == .post {
            await crawler.storeReplay(url, method: method.rawValue, requestSHA256: requestSHA, response: response, page: documentURL,
                                      run: run)
        }
        return .fulfil(status: response.status, headers: headers, body: response.body)
    }

    private func refuse(_ url: String, _ reason: String) async -> InterceptedAnswer {
        await run.ledger.refused(url, reason: reason, page: documentURL.string)
        return .fail(.blockedByClient)
    }

    static func fields(_ headers: HTTPHeaders) -> [HeaderField] {
        headers.fields.map { HeaderField($0.name, $0.value) }
    }
}

/// What one page's rendering recorded: its dependencies and its frames' documents.
final class PageRecording: @unchecked Sendable {
    private let lock = NSLock()
    private var dependencies: [RenderRecord.Dependency] = []
    private var frames: [WebURL: HTTPResponse] = [:]

    func add(_ dependency: RenderRecord.Dependency) {
        lock.lock()
        dependencies.append(dependency)
        lock.unlock()
    }

    func addFrameDocument(url: WebURL, response: HTTPResponse) {
        lock.lock()
        frames[url] = response
        lock.unlock()
    }

    var recorded: (dependencies: [RenderRecord.Dependency], frames: [WebURL: HTTPResponse]) {
        lock.lock()
        defer { lock.unlock() }
        return (dependencies, frames)
    }
}
