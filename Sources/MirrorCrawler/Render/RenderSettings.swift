import MirrorCore
import MirrorRender

/// Render mode for one site (`mirror --render`, `render` in config.json): which pages are
/// loaded in the browser, how it runs, and what is stored.
public struct RenderSettings: Sendable {
    /// What the stored copy of a rendered page is.
    public enum Scripts: String, Sendable, Codable {
        /// The rendered DOM with its scripts neutralised (``MirrorDocument/ScriptNeutraliser``):
        /// it shows what the scripts built, from disk and through any server. The default.
        case neutralise
        /// The page's own document with its scripts; `serve` answers their XHR and fetch calls
        /// from the responses recorded while rendering, so the application runs again offline
        /// (through `serve` only: from disk, its calls fail).
        case keep
    }

    /// Pages (by path and query) that are rendered; empty: every page.
    public var includes: [PathRule] = []
    /// Pages that are never rendered (wins over ``includes``); they take today's path.
    public var excludes: [PathRule] = []
    /// The browser: binary, pages at once, per-page budgets.
    public var browser = RenderConfiguration()
    /// What the stored copy of a rendered page is.
    public var scripts: Scripts = .neutralise

    /// Every page rendered, with the default browser and budgets, scripts neutralised.
    public init() {}
}

/// ``RenderSettings``' page rules, compiled: which fetched pages go to the browser.
struct RenderRules: Sendable {
    private let includes: [CompiledPathRule]
    private let excludes: [CompiledPathRule]

    init(_ settings: RenderSettings) throws(ScopeError) {
        var includes: [CompiledPathRule] = []
        for rule in settings.includes { includes.append(try CompiledPathRule(rule)) }
        var excludes: [CompiledPathRule] = []
        for rule in settings.excludes { excludes.append(try CompiledPathRule(rule)) }
        self.includes = includes
        self.excludes = excludes
    }

    /// Whether the page at `url` is rendered.
    func renders(_ url: WebURL) -> Bool {
        let target = url.requestTarget
        if excludes.contains(where: { $0.matches(target) }) { return false }
        return includes.isEmpty || includes.contains { $0.matches(target) }
    }
}
