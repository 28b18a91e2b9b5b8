import Foundation
import MirrorCore

/// Render mode's entry point: one headless Chromium, shut off from the network, whose tabs
/// render pages while every request they make is answered by a ``RenderRequestHandler``.
///
/// ```swift
/// let renderer = Renderer(configuration: RenderConfiguration(tabs: 4), logger: logger)
/// let isolation = try await renderer.start()          // fails fast: no Chromium, no namespace
/// let result = await renderer.render("https://intranet.example/app/", handler: broker)
/// renderer.shutdown()
/// ```
///
/// The renderer never fetches and never sees a certificate: the handler does the fetching.
/// A browser that crashes or stops answering is started again and its pages tried once more.
public final class Renderer: Sendable {
    /// The browser and budgets this renderer runs with.
    public let configuration: RenderConfiguration
    private let logger: Logger
    private let state = LockedState()

    private final class LockedState: @unchecked Sendable {
        private let lock = NSLock()
        var engine: RenderEngine?
        var started: Result<IsolationProbe.Choice, RenderError>?

        func withLock<T>(_ body: (LockedState) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }

    /// A renderer; nothing starts until ``start()``.
    /// - Parameters:
    ///   - configuration: the browser, the tabs, the budgets.
    ///   - logger: diagnostics (a browser restarted after a crash, say).
    public init(configuration: RenderConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Starts the browser: chooses the isolation (``BrowserIsolation``), launches Chromium and
    /// waits until its first tab is ready. Calling it again returns the first answer.
    /// - Returns: the isolation in force, and a warning to show when the browser's sandbox is
    ///   off.
    /// - Throws: ``RenderError`` (exit code 12): Chromium is not installed, no network
    ///   namespace can be made, or the browser does not start.
    @discardableResult
    public func start() async throws(RenderError) -> (isolation: BrowserIsolation, warning: String?) {
        if let started = state.withLock({ $0.started }) {
            let choice = try started.get()
            return (choice.isolation, choice.warning)
        }
        let result: Result<IsolationProbe.Choice, RenderError>
        do throws(RenderError) {
            guard access(configuration.executable, X_OK) == 0 else { throw .browserNotInstalled(path: configuration.executable) }
            let choice: IsolationProbe.Choice
            if let isolation = configuration.isolation {
                choice = IsolationProbe.Choice(isolation: isolation)
            } else {
                choice = try await Self.probe().get()
            }
            let engine = RenderEngine(
                launch: BrowserLaunch(executable: configuration.executable, isolation: choice.isolation,
                                      profileParent: configuration.profileParent),
                configuration: .init(tabs: configuration.tabs, budget: configuration.budget), logger: logger)
            state.withLock { $0.engine = engine }
            try await engine.start().get()
            result = .success(choice)
        } catch {
            result = .failure(error)
        }
        let settled = state.withLock { state -> Result<IsolationProbe.Choice, RenderError> in
            if state.started == nil { state.started = result }
            return state.started!
        }
        let choice = try settled.get()
        return (choice.isolation, choice.warning)
    }

    /// ``IsolationProbe/choose(uid:gid:unshare:)`` on a thread of its own: it waits for a child
    /// process, which must not hold one of the cooperative pool's threads.
    private static func probe() async -> Result<IsolationProbe.Choice, RenderError> {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(RenderError) in try IsolationProbe.choose() })
            }
        }
    }

    /// Renders one page. Call ``start()`` first.
    ///
    /// The page's own document is one of the requests handed to `handler`
    /// (``InterceptedRequest/isPageDocument``): answer it with the page as fetched.
    /// - Returns: the rendered page, or why it could not be rendered (after a second try for
    ///   a crash or a page that would not answer).
    public func render(_ url: String, handler: any RenderRequestHandler) async -> Result<RenderedPage, PageRenderFailure> {
        let (engine, started) = state.withLock { ($0.engine, $0.started) }
        if case .failure(let error) = started { return .failure(.browserUnavailable(error)) }
        guard let engine else { return .failure(.browserUnavailable(.stopped)) }
        return await engine.render(url, handler: handler)
    }

    /// How many times a browser was started (1 plus the restarts after crashes).
    public var browserStarts: Int {
        state.withLock { $0.engine?.starts ?? 0 }
    }

    /// Kills the browser and every process it started, removes its profile folder, and waits.
    /// Pages still waiting fail with ``RenderError/stopped``.
    public func shutdown() {
        state.withLock { $0.engine }?.stop()
    }
}

/// How render mode runs its browser.
public struct RenderConfiguration: Sendable, Equatable {
    /// The Chromium binary (``BrowserLaunch/debianChromium`` by default).
    public var executable: String
    /// Pages rendered at once, each in a tab of its own (one browser for all).
    public var tabs: Int
    /// Per-page bounds.
    public var budget: PageBudget
    /// The isolation to use; nil chooses the strongest this machine allows
    /// (``BrowserIsolation``). Tests set ``BrowserIsolation/sharedNetworkForTestsOnly`` to show
    /// what the namespace prevents.
    public var isolation: BrowserIsolation?
    /// Where the browser's throwaway profile folder is made (the system's temporary folder,
    /// `TMPDIR` or `/tmp`, by default).
    public var profileParent: String?

    /// Pages rendered at once unless configured. Measured on a loaded 2-core machine with a
    /// 500-page application: 2 tabs 4 pages/s, 4 tabs 5–6, 8 tabs 7–8; each tab beyond 4 adds
    /// about 45 MiB to the tree (700 MiB at 4), so 4 keeps a heavier application well under
    /// 1 GiB (BENCHMARKS.md, "Render mode").
    public static let defaultTabs = 4
    /// The accepted range of ``tabs``.
    public static let tabsRange = 1...32

    /// A configuration; every parameter has the default described on its property.
    public init(executable: String = BrowserLaunch.debianChromium, tabs: Int = RenderConfiguration.defaultTabs,
                budget: PageBudget = PageBudget(), isolation: BrowserIsolation? = nil, profileParent: String? = nil) {
        self.executable = executable
        self.tabs = tabs
        self.budget = budget
        self.isolation = isolation
        self.profileParent = profileParent
    }
}
