import MirrorCore

/// Decides, for each discovered URL, whether a crawl fetches it and how.
///
/// ## Rules
/// The **primary origins** are the start URLs' scheme, host and port; a different scheme or
/// port is a different origin, as in browsers.
/// - A **requisite** (image, stylesheet, script, font, media…) on a primary origin is always
///   ``ScopeDecision/requisite``: requisites ignore the depth limit, the include and exclude
///   rules and `noParent`, so that every mirrored page renders.
/// - A requisite on a host matching ``ScopeConfiguration/requisiteHosts`` is
///   ``ScopeDecision/requisite``; a page link there is ``ScopeDecision/outOfScope(reason:)``.
/// - Anything else off the primary origins is ``ScopeDecision/outOfScope(reason:)``.
/// - A **page** on a primary origin is checked, in this order, against `noParent` (its path
///   must be at or below the directory of a start URL on the same origin: `/docs/a.html` gives
///   `/docs/`, and `/docs` itself is accepted too), the exclude rules, the include rules
///   (``ScopeDecision/excluded(reason:)``), and then the depth (``ScopeDecision/tooDeep``).
///
/// Path rules match ``MirrorCore/WebURL/requestTarget`` (path and query). The caller filters
/// out non-http(s) references before asking.
public struct CrawlScope: Sendable {
    /// The start URLs, as given.
    public let startURLs: [WebURL]
    /// The configuration the scope was built from.
    public let configuration: ScopeConfiguration

    private let origins: Set<OriginKey>
    private let startDirectories: [OriginKey: [String]]
    private let includes: [CompiledPathRule]
    private let excludes: [CompiledPathRule]
    private let requisiteHosts: [HostPattern]

    /// Builds a scope and compiles its rules.
    /// - Parameters:
    ///   - startURLs: the URLs the crawl starts from; their origins are the primary origins.
    ///   - configuration: rules, depth and requisite hosts.
    /// - Throws: ``ScopeError/emptyStartList`` when `startURLs` is empty,
    ///   ``ScopeError/invalidRegex(pattern:reason:)`` and ``ScopeError/emptyPathRule(rule:)``
    ///   for a bad path rule, ``ScopeError/invalidHostPattern(pattern:)`` for a bad host pattern.
    public init(startURLs: [WebURL], configuration: ScopeConfiguration) throws(ScopeError) {
        guard !startURLs.isEmpty else { throw .emptyStartList }
        self.startURLs = startURLs
        self.configuration = configuration
        var origins = Set<OriginKey>()
        var directories: [OriginKey: [String]] = [:]
        for url in startURLs {
            let key = OriginKey(url)
            origins.insert(key)
            directories[key, default: []].append(CrawlScope.directory(of: url.path))
        }
        self.origins = origins
        self.startDirectories = directories
        var includes: [CompiledPathRule] = []
        for rule in configuration.includes { includes.append(try CompiledPathRule(rule)) }
        var excludes: [CompiledPathRule] = []
        for rule in configuration.excludes { excludes.append(try CompiledPathRule(rule)) }
        var hosts: [HostPattern] = []
        for pattern in configuration.requisiteHosts {
            do {
                hosts.append(try HostPattern(parsing: pattern))
            } catch {
                throw .invalidHostPattern(pattern: pattern)
            }
        }
        self.includes = includes
        self.excludes = excludes
        self.requisiteHosts = hosts
    }

    /// Classifies a discovered URL.
    ///
    /// See the type's documentation for the rules.
    /// - Parameters:
    ///   - url: the resolved, normalised URL (its fragment is ignored).
    ///   - isRequisite: the reference is a page requisite (img, css, script, font, media…).
    ///   - depth: the link depth the URL would get; only pages are limited by it.
    public func classify(_ url: WebURL, isRequisite: Bool, depth: Int) -> ScopeDecision {
        let key = OriginKey(url)
        guard origins.contains(key) else {
            if requisiteHosts.contains(where: { $0.matches(url) }) {
                if isRequisite { return .requisite }
                return .outOfScope(reason: "\(url.origin) is a requisite host; pages there are not crawled")
            }
            return .outOfScope(reason: "\(url.origin) is not a crawled origin")
        }
        if isRequisite { return .requisite }
        let target = url.requestTarget
        if configuration.noParent, let directories = startDirectories[key],
           !directories.contains(where: { CrawlScope.isAtOrBelow(url.path, directory: $0) }) {
            return .excluded(reason: "above the start directory \(directories[0]) (no-parent)")
        }
        if let rule = excludes.first(where: { $0.matches(target) }) {
            return .excluded(reason: "matches exclude rule \(rule.text)")
        }
        if !includes.isEmpty, !includes.contains(where: { $0.matches(target) }) {
            return .excluded(reason: "matches no include rule")
        }
        if let maxDepth = configuration.maxDepth, depth > maxDepth {
            return .tooDeep
        }
        return .page
    }

    /// Whether `url` has the same scheme, host and port as one of the start URLs.
    /// - Parameter url: any http(s) URL.
    public func isPrimaryOrigin(_ url: WebURL) -> Bool {
        origins.contains(OriginKey(url))
    }

    /// The directory part of a path: everything up to and including its last `/`.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "/" }
        return String(path[...slash])
    }

    /// Whether `path` is `directory`, below it, or `directory` without its trailing slash.
    static func isAtOrBelow(_ path: String, directory: String) -> Bool {
        if path.hasPrefix(directory) { return true }
        return directory.count > 1 && path == String(directory.dropLast())
    }
}

/// Scheme, host and effective port: what makes two URLs the same origin.
struct OriginKey: Hashable, Sendable {
    let scheme: String
    let host: String
    let port: Int

    init(_ url: WebURL) {
        scheme = url.scheme
        host = url.host
        port = url.effectivePort
    }
}
