import Foundation
import MirrorCore
import MirrorDocument
import MirrorHTTP
import MirrorRender
import MirrorStore

/// Live mode for a site in render mode: a page fetched because a browser asked for it is
/// rendered first (one headless browser, started on the first such page), and the rendered
/// DOM, its scripts neutralised, is what is stored and served.
final class LiveRendering: Sendable {
    let rules: RenderRules
    let renderer: Renderer

    init?(job: SiteJob, logger: Logger) {
        guard let settings = job.render, let rules = try? RenderRules(settings) else { return nil }
        self.rules = rules
        renderer = Renderer(configuration: settings.browser, logger: logger)
    }
}

extension LiveFetcher {
    /// The rendered page for a fetched HTML page of a render-mode site: the response with its
    /// body replaced by the neutralised DOM (also written over `temporaryPath`), or nil when the
    /// page is not rendered (not HTML, not selected by the rules, or the browser failed: the
    /// page is then stored as fetched).
    func rendered(_ url: WebURL, response: HTTPResponse, temporaryPath: String) async -> HTTPResponse? {
        guard let rendering, rendering.rules.renders(url),
              DocumentType(mediaType: response.mediaType, path: url.path) == .html,
              let body = try? SecureFileSystem.readFile(atPath: temporaryPath) else { return nil }
        do {
            try await rendering.renderer.start()
        } catch {
            logger.warning("live: \(url.string): not rendered: \(error.summary)")
            return nil
        }
        let broker = LiveRenderBroker(fetcher: self, document: response, body: body)
        guard case .success(let page) = await rendering.renderer.render(url.string, handler: broker),
              let inert = try? ScriptNeutraliser.neutralise(page.html).bytes
        else {
            logger.warning("live: \(url.string): the browser could not render it; stored as fetched")
            return nil
        }
        do {
            try SecureFileSystem.createFile(inert, atPath: temporaryPath, shownAs: temporaryPath, replacing: true)
        } catch {
            return nil
        }
        var result = response
        var headers = HTTPHeaders(response.headers.fields.filter { $0.name.lowercased() != "content-type" })
        headers.append(name: "Content-Type", value: "text/html; charset=utf-8")
        result.headers = headers
        result.bodyBytes = Int64(inert.count)
        result.sha256 = SHA256Digest.hex(inert)
        logger.info("live: rendered \(url.string) (\(page.requestCount) requests, \(NumberText.fixed(page.seconds, fractionDigits: 2)) s)")
        return result
    }

    /// Stops the live browser, if one was started.
    public nonisolated func stopRendering() {
        rendering?.renderer.shutdown()
    }
}

/// Answers a live-rendered page's requests with the site's engine, identity and trust, within
/// its scope (nothing is stored: the page's own references are fetched live when a browser
/// asks for them).
struct LiveRenderBroker: RenderRequestHandler {
    let fetcher: LiveFetcher
    let document: HTTPResponse
    let body: [UInt8]

    func answer(_ request: InterceptedRequest) async -> InterceptedAnswer {
        if request.isPageDocument {
            return .fulfil(status: document.status, headers: RenderBroker.fields(document.headers), body: body)
        }
        guard let url = WebURL(request.url)?.withoutFragment, fetcher.scope.classify(url, isRequisite: true, depth: 0).isFetched,
              !RenderBroker.refusedResourceTypes.contains(request.resourceType) else { return .fail(.blockedByClient) }
        let method: HTTPRequest.Method
        switch request.method {
        case "GET": method = .get
        case "HEAD": method = .head
        case "POST": method = .post
        default: return .fail(.blockedByClient)
        }
        let job = fetcher.job
        var outgoing = HTTPRequest(url: url.string, method: method, headers: job.headers, destination: .memory,
                                   maxBodyBytes: min(job.limits.maxFileSize, max(0, request.maximumBodyBytes)),
                                   maxDecompressionRatio: job.limits.maxDecompressionRatio, timeouts: job.limits.timeouts,
                                   userAgent: job.userAgent)
        outgoing.body = method == .post ? (request.body ?? []) : nil
        for field in request.headers where !RenderBroker.withheldRequestHeaders.contains(field.name.lowercased()) {
            outgoing.headers.append((field.name, field.value))
        }
        var redirects = job.redirects
        redirects.follow = false
        guard let result = try? await fetcher.client.fetch(outgoing, security: fetcher.security, redirects: redirects,
                                                           retries: method == .post ? .none : job.retries, cookies: job.cookies)
        else { return .fail(.failed) }
        return .fulfil(status: result.response.status, headers: RenderBroker.fields(result.response.headers), body: result.response.body)
    }
}
