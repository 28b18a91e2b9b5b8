import Foundation
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorTLS

extension SiteConfig {
    /// The crawl job this site describes, under `outputRoot`.
    ///
    /// - Throws: ``UsageError`` when a credential header's reference cannot be read.
    func makeJob(outputRoot: String, jobs: Int) throws -> SiteJob {
        var job = SiteJob(name: name, startURLs: start.map(\.withoutFragment), outputRoot: outputRoot)
        job.jobs = jobs
        job.scope.includes = scope.include.map(Self.rule)
        job.scope.excludes = scope.exclude.map(Self.rule)
        job.scope.noParent = scope.noParent
        job.scope.maxDepth = scope.depth
        job.scope.requisiteHosts = scope.requisiteHosts
        job.respectRobots = scope.robots
        job.sitemaps = crawl.sitemapOptions
        job.politeness = crawl.politeness(maximumConcurrency: jobs)
        job.limits.maxPages = limits.maxPages
        job.limits.maxBytes = limits.maxBytes
        job.limits.maxFileSize = limits.maxFileSize
        job.limits.maxHTMLBytes = limits.maxHTMLBytes
        job.limits.maxURLLength = limits.maxURLLength
        job.limits.maxDecompressionRatio = limits.maxDecompressionRatio
        job.limits.perHostConnections = limits.perHostConnections
        job.limits.httpVersion = limits.httpVersion
        job.limits.timeouts = HTTPRequest.Timeouts(connect: limits.connectTimeout, idle: limits.idleTimeout,
                                                   lowSpeedBytes: Int(limits.minRate), total: limits.totalTimeout,
                                                   headers: limits.headerTimeout)
        job.limits.runTime = limits.runTime
        job.publishPartial = limits.publishPartial
        job.traps = traps.rules
        job.redirects.maxRedirects = limits.maxRedirects
        job.redirects.allowDowngrade = http.allowDowngrade
        job.retries.maxRetries = limits.retries
        if let agent = http.userAgent { job.userAgent = agent }
        for header in http.headers {
            switch header.value {
            case .literal(let value):
                job.headers.append((header.name, value))
            case .reference(let reference):
                let secret = try reference.source.resolve(forFile: "header \(header.name)")
                job.headers.append((header.name, secret.reveal()))
            }
        }
        if let file = http.cookies {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw UsageError("sites[\(name)].http.cookies: cannot read the cookie file \(file)",
                                 hint: "check the path; it must be a Netscape cookie file (curl -c)")
            }
            job.cookies.load(netscapeFile: text)
        }
        job.render = render?.settings(executable: RenderConfig.browserExecutable(environment: ProcessInfo.processInfo.environment))
        return job
    }

    /// The identity (loaded once) and the host→trust table of this site, plus the warnings to
    /// repeat in the run's report (the certificate expires within `refresh.expiryWarningDays`).
    func makeSecurity(logger: Logger) throws -> (SecurityPolicy, warnings: [String]) {
        var identity: ClientIdentity?
        var warnings: [String] = []
        let manager = try trust.makeManager()
        // libcurl opens on a thread of its own while the identity is read (issue #27).
        CurlGlobal.preload()
        if let config = self.identity {
            let loaded: ClientIdentity
            if TokenIdentityLoader.isToken(certificate: config.certificate, key: config.key) {
                loaded = try TokenIdentityLoader(certificate: config.certificate, key: config.key, module: config.module,
                                                 pin: config.password?.source).load()
            } else {
                let secret = try config.password?.source.resolve(forFile: config.certificate)
                loaded = try ClientIdentity.load(certificate: config.certificate, key: config.key, type: config.type, password: secret)
            }
            if let warning = loaded.expiryWarning(withinDays: refresh.expiryWarningDays) {
                logger.warning("\(name): \(warning)")
                warnings.append(warning)
            }
            identity = loaded
        }
        TLSWarmUp.start(trust: manager, hosts: Array(Set(start.map(\.host))))
        return (SecurityPolicy(identity: identity, identityScope: HostScope(identityHosts), trust: manager), warnings)
    }

    static func rule(_ pattern: ScopeConfig.Pattern) -> PathRule {
        switch pattern {
        case .prefix(let text): .prefix(text)
        case .regex(let text): .regex(text)
        }
    }
}
