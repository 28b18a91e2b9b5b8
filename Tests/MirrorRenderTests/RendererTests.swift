import Foundation
import MirrorCore
import MirrorRender
import MirrorTestSupport
import Testing

/// The renderer with Debian's real Chromium, in its network namespace: pages built by
/// scripts from JSON are rendered, every request goes to the handler, and the budgets end
/// pages that never finish.
@Suite(.serialized) struct RendererTests {
    static let app = "https://app.test"

    static func appHandler() -> StaticHandler {
        StaticHandler([
            "\(app)/": StaticHandler.html("""
                <!doctype html><html><head><title>Shell</title><script src="/app.js"></script></head>
                <body><main id="root">Loading…</main></body></html>
                """),
            "\(app)/app.js": StaticHandler.script("""
                fetch('/api/items.json').then(r => r.json()).then(items => {
                  const root = document.getElementById('root');
                  root.textContent = '';
                  for (const item of items) {
                    const link = document.createElement('a');
                    link.href = '/items/' + item.id + '.html';
                    link.textContent = item.name;
                    root.appendChild(link);
                  }
                });
                """),
            "\(app)/api/items.json": StaticHandler.json(#"[{"id":1,"name":"Résumé één"},{"id":2,"name":"Second item"}]"#, delay: 0.05),
        ])
    }

    @Test func rendersAPageThatScriptsBuildFromJSON() async throws {
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 2), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        let handler = Self.appHandler()
        let page = try await renderer.render("\(Self.app)/", handler: handler).get()
        let html = String(decoding: page.html, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"), "\(html.prefix(80))")
        #expect(html.contains("Résumé één"))
        #expect(html.contains(#"href="/items/2.html""#))
        #expect(html.contains(#"<meta charset="utf-8">"#))
        #expect(!html.contains("Loading…"))
        #expect(page.completion == .idle)
        let urls = Set(handler.requests.map(\.url))
        #expect(urls.isSuperset(of: ["\(Self.app)/", "\(Self.app)/app.js", "\(Self.app)/api/items.json"]), "\(urls)")
        #expect(handler.requests.filter(\.isPageDocument).map(\.url) == ["\(Self.app)/"])
    }
}

extension RendererTests {
    @Test func sameOriginFramesAreReadWithThePage() async throws {
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        let handler = StaticHandler([
            "\(Self.app)/": StaticHandler.html("""
                <!DOCTYPE html><html><head><title>Frames</title></head><body><h1>Outer</h1>
                <iframe src="/inner.html"></iframe></body></html>
                """),
            "\(Self.app)/inner.html": StaticHandler.html("""
                <!DOCTYPE html><html><body><p id="inner">shell</p>
                <script>document.getElementById('inner').textContent = 'built inside the frame';</script></body></html>
                """),
        ])
        let page = try await renderer.render("\(Self.app)/", handler: handler).get()
        #expect(page.frames.map(\.url) == ["\(Self.app)/inner.html"])
        let frame = String(decoding: page.frames.first?.html ?? [], as: UTF8.self)
        #expect(frame.hasPrefix("<!DOCTYPE html>") && frame.contains(#"<p id="inner">built inside the frame</p>"#), "\(frame)")
        #expect(handler.requests.contains { $0.url == "\(Self.app)/inner.html" && $0.isFrameDocument })
    }
}

extension RendererTests {
    /// A page whose content comes from timers set after its load event (700 ms, then 200 ms),
    /// longer than the real clock's quiet period: in page time they run within the page's span.
    static func timerHandler() -> StaticHandler {
        StaticHandler([
            "\(app)/": StaticHandler.html("""
                <!DOCTYPE html><html><body><p id="late">waiting</p><script>
                addEventListener('load', () => setTimeout(() => {
                  fetch('/late.json').then(r => r.json()).then(value => {
                    const late = document.getElementById('late');
                    late.textContent = value.text;
                    setTimeout(() => { late.dataset.done = 'yes'; }, 200);
                  });
                }, 700));
                </script></body></html>
                """),
            "\(app)/late.json": StaticHandler.json(#"{"text":"built by a late timer"}"#, delay: 0.05),
        ])
    }

    @Test func timersAfterLoadRunInPageTimeAndTheTabServesTheNextPage() async throws {
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        // Twice in the one tab: a span that ran out must not stop the next page's clock.
        for _ in 0..<2 {
            let page = try await renderer.render("\(Self.app)/", handler: Self.timerHandler()).get()
            let html = String(decoding: page.html, as: UTF8.self)
            #expect(html.contains(#"<p id="late" data-done="yes">built by a late timer</p>"#), "\(html)")
            #expect(page.completion == .idle)
        }
    }

    @Test func withoutPageTimeTheQuietPeriodEndsThePage() async throws {
        var budget = PageBudget()
        budget.timers = 0
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1, budget: budget), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        let handler = Self.timerHandler()
        let page = try await renderer.render("\(Self.app)/", handler: handler).get()
        #expect(String(decoding: page.html, as: UTF8.self).contains(#"<p id="late">waiting</p>"#))
        #expect(!handler.requests.contains { $0.url.hasSuffix("/late.json") })
    }
}
