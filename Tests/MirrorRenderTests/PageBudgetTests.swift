import Foundation
import MirrorCore
import MirrorRender
import MirrorTestSupport
import Testing

/// Pages that would never finish by themselves end within their budgets, and what they had
/// rendered by then is kept and marked.
@Suite(.serialized) struct PageBudgetTests {
    static let site = "https://budget.test"

    func render(_ body: String, extra: [String: StaticHandler.Response] = [:], budget: PageBudget)
        async throws -> (Result<RenderedPage, PageRenderFailure>, StaticHandler, Double)
    {
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1, budget: budget), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        var table = extra
        table["\(Self.site)/"] = StaticHandler.html("<!doctype html><html><head><title>t</title></head><body>\(body)</body></html>")
        table["\(Self.site)/tick.json"] = StaticHandler.json("{}")
        let handler = StaticHandler(table)
        let started = Date()
        let result = await renderer.render("\(Self.site)/", handler: handler)
        return (result, handler, Date().timeIntervalSince(started))
    }

    @Test func aPageThatNeverGoesIdleEndsAtItsTimeBudget() async throws {
        var budget = PageBudget()
        budget.time = 2
        budget.timers = 0  // on the real clock, a 40 ms poll is never quiet for 150 ms
        let (result, handler, seconds) = try await render("""
            <p id="count">0</p>
            <script>let n = 0; setInterval(() => fetch('/tick.json').then(() => { document.getElementById('count').textContent = ++n; }), 40);</script>
            """, budget: budget)
        let page = try result.get()
        #expect(page.completion == .budgetCut(.time))
        #expect(seconds < 6, "took \(seconds) s")
        #expect(handler.requests.count > 10)
        let html = String(decoding: page.html, as: UTF8.self)
        #expect(!html.contains(#"<p id="count">0</p>"#), "the counter had moved on: \(html)")
    }

    @Test func aPollingPageGetsItsSpansOfPageTimeAndNoMore() async throws {
        // In page time a 40 ms poll runs as fast as its requests are answered; the page ends
        // after its two spans (1 s after load, 1 s after settling): about 50 polls, not a flood.
        let (result, handler, seconds) = try await render("""
            <p id="count">0</p>
            <script>let n = 0; setInterval(() => fetch('/tick.json').then(() => { document.getElementById('count').textContent = ++n; }), 40);</script>
            """, budget: PageBudget())
        let page = try result.get()
        #expect(page.completion == .idle)
        #expect(seconds < 10, "took \(seconds) s")
        let polls = handler.requests.filter { $0.url.hasSuffix("/tick.json") }.count
        #expect(polls >= 20 && polls <= 80, "\(polls) polls")
        let html = String(decoding: page.html, as: UTF8.self)
        #expect(!html.contains(#"<p id="count">0</p>"#), "the counter had moved on: \(html)")
    }

    @Test func aLoopingScriptIsStoppedAndTheDOMKept() async throws {
        var budget = PageBudget()
        budget.time = 1.5
        budget.capture = 1
        let (result, _, seconds) = try await render("""
            <p id="state">shell</p>
            <script>document.getElementById('state').textContent = 'built'; setTimeout(() => { for (;;) {} }, 0);</script>
            """, budget: budget)
        let page = try result.get()
        #expect(page.completion == .budgetCut(.script))
        #expect(String(decoding: page.html, as: UTF8.self).contains(#"<p id="state">built</p>"#))
        #expect(seconds < 8, "took \(seconds) s")
    }

    @Test func anEndlessStreamOfRequestsIsCutAtTheRequestBudget() async throws {
        var budget = PageBudget()
        budget.maximumRequests = 20
        let (result, handler, _) = try await render("""
            <p>many</p><script>for (let i = 0; i < 500; i++) fetch('/tick.json?' + i).catch(() => 0);</script>
            """, extra: Dictionary(uniqueKeysWithValues: (0..<500).map { ("\(Self.site)/tick.json?\($0)", StaticHandler.json("{}")) }),
            budget: budget)
        let page = try result.get()
        #expect(page.completion == .budgetCut(.requests))
        #expect(handler.requests.count == 20, "\(handler.requests.count) requests reached the handler")
        #expect(page.requestCount == 20)
    }

    @Test func aHugeResponseIsRefusedAtTheByteBudget() async throws {
        var budget = PageBudget()
        budget.maximumBytes = 1 << 20
        let big = StaticHandler.Response(type: "application/octet-stream", body: [UInt8](repeating: 0x41, count: 3 << 20))
        let (result, handler, _) = try await render("""
            <p id="size">none</p>
            <script>fetch('/big.bin').then(r => r.arrayBuffer()).then(b => { document.getElementById('size').textContent = b.byteLength; },
              () => { document.getElementById('size').textContent = 'refused'; });</script>
            """, extra: ["\(Self.site)/big.bin": big], budget: budget)
        let page = try result.get()
        #expect(page.completion == .budgetCut(.bytes))
        #expect(String(decoding: page.html, as: UTF8.self).contains(#"<p id="size">refused</p>"#))
        #expect(handler.requests.first { $0.url.hasSuffix("/big.bin") }?.maximumBodyBytes ?? 0 < Int64(1 << 20))
    }

    @Test func dialogsAreDismissedAndScriptNavigationsReported() async throws {
        let (result, _, seconds) = try await render("""
            <p id="answer">?</p>
            <script>alert('hello'); document.getElementById('answer').textContent = confirm('sure?') ? 'yes' : 'no';
            setTimeout(() => { location.href = '/elsewhere.html'; }, 50);</script>
            """, budget: PageBudget())
        let page = try result.get()
        #expect(page.completion == .idle)
        #expect(String(decoding: page.html, as: UTF8.self).contains(#"<p id="answer">no</p>"#))
        #expect(page.navigations == ["\(Self.site)/elsewhere.html"])
        #expect(seconds < 5)
    }
}
