import MirrorCore

/// What the responder decided for one request.
enum ResponderOutcome {
    /// Send this.
    case response(Response)
    /// The file is not in the snapshot and a ``MissHandler`` is set: ask it.
    case miss(site: String, path: String)
}

/// Routes a request to a site, a file, a page or an error; runs on the event-loop thread.
///
/// Order: method (405 for all but GET/HEAD), access token (401), path confinement (400),
/// site routing, then the confined file lookup in the site's current snapshot.
///
/// Freshness works in epochs: the event loop calls ``advanceEpoch()`` after every
/// `epoll_wait` and before handling mailbox messages. Within one epoch each site's `current`
/// link is read once (``SiteMount``), and a file found by the confined lookup is remembered
/// under the request's raw path, with its content type, for the other requests handled in
/// the same wake-up (the ``FileMemo``). Every request whose bytes arrived after a file was
/// replaced or `current` was switched is therefore answered from a fresh lookup, like
/// nginx's `open_file_cache` with a validity of one wake-up instead of seconds.
final class Responder {
    let configuration: ServerConfiguration
    let mounts: [SiteMount]
    let mimeTypes = MIMETypes.system
    let tokenGate: TokenGate?
    /// Set while answering a request again after the miss handler stored its file: no second
    /// miss, no staleness check.
    private var missesSuppressed = false
    /// The current epoch (see the type's discussion).
    private(set) var epoch: UInt64 = 0
    /// Files found in this epoch, by raw request path.
    private var memo = FileMemo()

    init(configuration: ServerConfiguration) {
        self.configuration = configuration
        mounts = configuration.sites.map(SiteMount.init)
        tokenGate = configuration.accessToken.map(TokenGate.init)
    }

    /// Starts a new epoch: `current` links are read again and remembered files forgotten.
    func advanceEpoch() {
        epoch &+= 1
        memo.removeAll()
    }

    /// Answers a request again after a ``MissResult/retry``: from the snapshot only.
    func respond(to head: HTTPRequestHead, allowMiss: Bool) -> ResponderOutcome {
        missesSuppressed = !allowMiss
        defer { missesSuppressed = false }
        return respond(to: head)
    }

    func respond(to head: HTTPRequestHead) -> ResponderOutcome {
        guard head.method == "GET" || head.method == "HEAD" || (configuration.requestInterceptor != nil && head.method == "POST") else {
            var response = Response.page(405, Pages.error(status: 405, reason: "Only GET and HEAD are served."))
            response.headers.add("Allow", "GET, HEAD")
            return .response(response)
        }
        if let tokenGate {
            switch tokenGate.check(head) {
            case .allowed: break
            case .denied:
                var response = Response.page(401, Pages.error(status: 401, reason: "This mirror needs its access token."))
                response.headers.add("WWW-Authenticate", "Bearer")
                return .response(response)
            case .redirect(let location, let cookie):
                return .response(.redirect(303, to: location, extra: HTTPHeaders([("Set-Cookie", cookie)])))
            }
        }
        let path: RequestPath
        switch RequestPath.parse(head.path) {
        case .success(let parsed): path = parsed
        case .failure(let rejection):
            return .response(.page(400, Pages.error(status: 400, reason: "Unacceptable path (\(rejection)).")))
        }
        switch configuration.layout {
        case .single:
            return serve(path, in: mounts[0], prefix: [], request: head)
        case .several:
            guard let name = path.segments.first else { return .response(siteIndex()) }
            guard let mount = mounts.first(where: { $0.site.name == name }) else { return .response(notFound(path)) }
            if path.segments.count == 1, !path.trailingSlash {
                return .response(.redirect(301, to: path.encoded(trailingSlash: true) + (head.query.map { "?" + $0 } ?? "")))
            }
            let inner = RequestPath(segments: Array(path.segments.dropFirst()), trailingSlash: path.trailingSlash)
            return serve(inner, in: mount, prefix: [name], request: head)
        }
    }

    private func serve(_ path: RequestPath, in mount: SiteMount, prefix: [String], request: HTTPRequestHead) -> ResponderOutcome {
        var full: RequestPath { RequestPath(segments: prefix + path.segments, trailingSlash: path.trailingSlash) }
        if path.segments.first == "_mirror" { return .response(notFound(full)) }
        guard let snapshot = mount.currentSnapshot(epoch: epoch) else { return miss(mount, path, full) }
        if let interceptor = configuration.requestInterceptor {
            if let answer = intercepted(interceptor, path, in: snapshot, site: mount.site.name, request: request) { return answer }
            if request.method == "POST" { return .response(methodNotAllowed()) }
        }
        let found: FileMemo.Entry
        if let remembered = memo[request.path] {
            found = remembered
        } else {
            switch snapshot.directory.lookup(path) {
            case .file(let file):
                let type = snapshot.contentTypes[file.relativePath] ?? mimeTypes.type(forFileName: file.relativePath)
                found = FileMemo.Entry(file: file, contentType: type)
                memo.remember(found, for: request.path)
            case .directoryWithoutSlash:
                return .response(.redirect(301, to: full.encoded(trailingSlash: true) + (request.query.map { "?" + $0 } ?? "")))
            case .notFound:
                return miss(mount, path, full)
            }
        }
        if !missesSuppressed, let handler = configuration.missHandler,
           handler.isStale(site: mount.site.name, path: "/" + path.relativePath) {
            return .miss(site: mount.site.name, path: path.encoded(trailingSlash: path.trailingSlash))
        }
        let plan = FileResponsePlanner.plan(
            method: request.method, requestHeaders: request.headers, metadata: found.file.metadata,
            validators: found.file.validators, contentType: found.contentType)
        let body: ResponseBody = plan.body.map { .file(found.file, $0) } ?? .empty
        return .response(Response(status: plan.status, headers: plan.headers, body: body))
    }

    private func miss(_ mount: SiteMount, _ path: RequestPath, _ full: RequestPath) -> ResponderOutcome {
        if configuration.missHandler != nil, !missesSuppressed {
            return .miss(site: mount.site.name, path: path.encoded(trailingSlash: path.trailingSlash))
        }
        return .response(notFound(full))
    }

    func notFound(_ path: RequestPath) -> Response {
        .page(404, Pages.notFound(path: "/" + path.relativePath, liveEnabled: configuration.liveEnabled))
    }

    private func siteIndex() -> Response {
        let rows = mounts.map { mount in
            let snapshot = mount.currentSnapshot(epoch: epoch)
            return Pages.SiteRow(
                name: mount.site.name, link: "/" + RequestPath.percentEncode(mount.site.name) + "/",
                lastRefresh: snapshot?.lastRefresh, pageCount: snapshot?.pageCount)
        }
        return .page(200, Pages.siteIndex(rows))
    }
}

extension Responder {
    /// 405 for a method this server does not serve.
    func methodNotAllowed() -> Response {
        var response = Response.page(405, Pages.error(status: 405, reason: "Only GET and HEAD are served."))
        response.headers.add("Allow", "GET, HEAD")
        return response
    }

    /// The interceptor's answer for a request, as a response (nil: it had none).
    func intercepted(
        _ interceptor: any RequestInterceptor, _ path: RequestPath, in snapshot: SnapshotState, site: String, request: HTTPRequestHead
    ) -> ResponderOutcome? {
        switch interceptor.intercept(site: site, path: path, request: request) {
        case nil:
            return nil
        case .response(let status, let headers, let body):
            var all = headers
            all.add("Cache-Control", "no-store")
            return .response(Response(status: status, headers: all, body: .bytes(body)))
        case .file(let relativePath, let contentType):
            let segments = relativePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }), segments.first != "_mirror",
                  case .file(let file) = snapshot.directory.lookup(RequestPath(segments: segments, trailingSlash: false))
            else { return nil }
            let type = contentType ?? snapshot.contentTypes[file.relativePath] ?? mimeTypes.type(forFileName: file.relativePath)
            // The file answers a GET (or a POST replayed as its recorded answer).
            let plan = FileResponsePlanner.plan(
                method: request.method == "HEAD" ? "HEAD" : "GET", requestHeaders: request.headers, metadata: file.metadata,
                validators: file.validators, contentType: type)
            let body: ResponseBody = plan.body.map { .file(file, $0) } ?? .empty
            return .response(Response(status: plan.status, headers: plan.headers, body: body))
        }
    }
}
