import MirrorCrawler
import MirrorRender

/// A site's render mode (`"render": true`, or an object): which pages go to the headless
/// browser, how many at once, their budgets, and what is stored.
public struct RenderConfig: Sendable, Equatable {
    /// Pages rendered (path rules as in `scope`); empty: every page.
    public var include: [ScopeConfig.Pattern] = []
    /// Pages never rendered (they take the ordinary path).
    public var exclude: [ScopeConfig.Pattern] = []
    /// Pages rendered at once, in one browser.
    public var jobs = RenderConfiguration.defaultTabs
    /// Seconds a page may take at most.
    public var timeout = PageBudget().time
    /// Seconds without a request in flight, after load, before a page is done.
    public var quiet = PageBudget().quiet
    /// Seconds of page time its timers get after load and after the settle script (0: the
    /// real clock and the quiet period only).
    public var timers = PageBudget().timers
    /// Requests one page may make.
    public var maxRequests = PageBudget().maximumRequests
    /// Response bytes one page may receive.
    public var maxBytes = PageBudget().maximumBytes
    /// `neutralise` (the default: the rendered DOM, inert) or `keep` (the page with its scripts,
    /// replayed by `serve`).
    public var scripts = RenderSettings.Scripts.neutralise

    /// Render mode with every default: every page, 4 at once, scripts neutralised.
    public init() {}

    /// The crawl's render settings, with the browser at `executable`.
    func settings(executable: String) -> RenderSettings {
        var settings = RenderSettings()
        settings.includes = include.map(SiteConfig.rule)
        settings.excludes = exclude.map(SiteConfig.rule)
        settings.scripts = scripts
        settings.browser = RenderConfiguration(
            executable: executable, tabs: jobs,
            budget: PageBudget(time: timeout, quiet: quiet, maximumRequests: maxRequests, maximumBytes: maxBytes, timers: timers))
        return settings
    }

    /// The browser binary: `MTLS_MIRROR_CHROMIUM`, or Debian's.
    static func browserExecutable(environment: [String: String]) -> String {
        environment["MTLS_MIRROR_CHROMIUM"].flatMap { $0.isEmpty ? nil : $0 } ?? BrowserLaunch.debianChromium
    }
}

extension RenderConfig {
    /// The keys of a `render` object.
    static let keys = ["include", "exclude", "jobs", "timeout", "quiet", "timers", "maxRequests", "maxBytes", "scripts"]

    /// Decodes a site's `render`: `true` (every page, defaults), `false`, or an object.
    /// - Returns: nil for `false`.
    static func decode(_ node: ConfigNode) throws(ConfigError) -> RenderConfig? {
        if case .bool(let on) = node.value { return on ? RenderConfig() : nil }
        let object = try node.object(keys: keys, expected: "true, false or a render object")
        var config = RenderConfig()
        config.include = try ScopeConfig.patterns(object.optional("include"))
        config.exclude = try ScopeConfig.patterns(object.optional("exclude"))
        if let jobs = try object.optional("jobs")?.int(in: RenderConfiguration.tabsRange) { config.jobs = jobs }
        if let seconds = try object.optional("timeout")?.duration(positive: true) { config.timeout = seconds }
        if let seconds = try object.optional("quiet")?.duration(positive: true) { config.quiet = seconds }
        if let seconds = try object.optional("timers")?.duration() { config.timers = seconds }
        if let count = try object.optional("maxRequests")?.int(in: 1...100_000) { config.maxRequests = count }
        if let size = try object.optional("maxBytes")?.size(atLeast: 1) { config.maxBytes = size }
        if let node = object.optional("scripts") {
            let expected = "\"neutralise\" or \"keep\""
            guard let scripts = RenderSettings.Scripts(rawValue: try node.string(expected)) else { throw node.invalid(expected) }
            config.scripts = scripts
        }
        return config
    }

    var dumpJSON: ConfigJSON {
        .object([
            .init("include", ScopeConfig.dump(include)), .init("exclude", ScopeConfig.dump(exclude)),
            .init("jobs", .number(String(jobs))), .init("timeout", ConfigQuantity.formatSeconds(timeout)),
            .init("quiet", ConfigQuantity.formatSeconds(quiet)), .init("timers", ConfigQuantity.formatSeconds(timers)),
            .init("maxRequests", .number(String(maxRequests))),
            .init("maxBytes", ConfigQuantity.formatBytes(maxBytes)), .init("scripts", .string(scripts.rawValue)),
        ])
    }
}
