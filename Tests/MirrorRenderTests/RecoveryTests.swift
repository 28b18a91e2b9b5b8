#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MirrorCore
import MirrorRender
import MirrorTestSupport
import Testing

/// A renderer or browser that crashes is replaced and the page tried once more, then
/// reported; the browser runs sandboxed and leaves nothing behind.
@Suite(.serialized) struct RecoveryTests {
    static let site = "https://recover.test"

    /// A page whose data arrives after `delay` seconds, so that a test can kill something
    /// while it renders.
    static func slowPage(delay: Double) -> StaticHandler {
        StaticHandler([
            "\(site)/": StaticHandler.html("""
                <!doctype html><html><body><p id="data">waiting</p>
                <script>fetch('/slow.json').then(r => r.json()).then(d => { document.getElementById('data').textContent = d.value; });</script>
                </body></html>
                """),
            "\(site)/slow.json": StaticHandler.json(#"{"value":"arrived"}"#, delay: delay),
        ])
    }

    /// Processes whose command line contains `text` and (when given) `type`.
    static func processes(naming text: String, where predicate: (String) -> Bool) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(text) && predicate(line) ? pid : nil
        }
    }

    /// Kills, after `after` seconds, the processes of the browser under `folder` that match.
    static func kill(after: Double, folder: String, where predicate: @escaping @Sendable (String) -> Bool) -> Task<Int, Never> {
        Task.detached {
            try? await Task.sleep(nanoseconds: UInt64(after * 1e9))
            let victims = processes(naming: folder, where: predicate)
            for pid in victims { Glibc.kill(pid, SIGKILL) }
            return victims.count
        }
    }

    @Test func aCrashedRendererIsReplacedAndThePageTriedAgain() async throws {
        let scratch = try ShortTemporaryDirectory()
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1, profileParent: scratch.path), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        let killer = Self.kill(after: 0.6, folder: scratch.path) { $0.contains("--type=renderer") }
        let handler = Self.slowPage(delay: 1.2)
        let page = try await renderer.render("\(Self.site)/", handler: handler).get()
        #expect(await killer.value >= 1, "no renderer was killed")
        #expect(String(decoding: page.html, as: UTF8.self).contains(#"<p id="data">arrived</p>"#))
        #expect(handler.requests.filter(\.isPageDocument).count == 2, "the page was loaded twice")
        #expect(renderer.browserStarts == 1)
    }

    @Test func aCrashedBrowserIsStartedAgainAndThePageTriedAgain() async throws {
        let scratch = try ShortTemporaryDirectory()
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 2, profileParent: scratch.path), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        let killer = Self.kill(after: 0.6, folder: scratch.path) { $0.contains("--remote-debugging-pipe") && !$0.contains("--type=") }
        let page = try await renderer.render("\(Self.site)/", handler: Self.slowPage(delay: 1.2)).get()
        #expect(await killer.value == 1)
        #expect(String(decoding: page.html, as: UTF8.self).contains(#"<p id="data">arrived</p>"#))
        #expect(renderer.browserStarts == 2)
        // The dead browser's profile went with it: only the new browser's folder is left.
        let folders = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(folders.count == 1, "\(folders)")
    }

    @Test func aPageThatCrashesTwiceIsReported() async throws {
        let scratch = try ShortTemporaryDirectory()
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1, profileParent: scratch.path), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        let path = scratch.path
        let killer = Task.detached { () -> Int in
            var killed = 0
            for _ in 0..<200 where killed < 2 {
                try? await Task.sleep(nanoseconds: 50_000_000)
                // A renderer that has the page: the slow answer is pending for 1.5 s each time.
                let victims = Self.processes(naming: path) { $0.contains("--type=renderer") }
                if !victims.isEmpty {
                    try? await Task.sleep(nanoseconds: 500_000_000)
                    for pid in Self.processes(naming: path, where: { $0.contains("--type=renderer") }) { Glibc.kill(pid, SIGKILL) }
                    killed += 1
                    try? await Task.sleep(nanoseconds: 600_000_000)
                }
            }
            return killed
        }
        let result = await renderer.render("\(Self.site)/", handler: Self.slowPage(delay: 1.5))
        _ = await killer.value
        #expect(result == .failure(.pageCrashed(attempts: 2)), "\(result)")
    }

    @Test func theBrowserIsSandboxedAndLeavesNothingBehind() async throws {
        let scratch = try ShortTemporaryDirectory()
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1, profileParent: scratch.path), logger: .silent)
        let (isolation, warning) = try await renderer.start()
        #expect(isolation == .privateNetworkWithSandbox)
        #expect(warning == nil)
        // Chromium's own report on its sandbox (chrome:// pages are not network requests).
        let status = try await renderer.render("chrome://sandbox", handler: StaticHandler([:])).get()
        let text = String(decoding: status.html, as: UTF8.self)
        #expect(text.contains("You are adequately sandboxed."), "\(text.prefix(2000))")
        let folders = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(folders.count == 1)
        var info = stat()
        #expect(stat(scratch.path + "/" + folders[0], &info) == 0 && info.st_mode & 0o777 == 0o700)
        renderer.shutdown()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "the profile folder is removed")
        #expect(Self.processes(naming: scratch.path) { _ in true }.isEmpty, "no browser process is left")
    }

    @Test func theUnsandboxedFallbackStillRendersInItsOwnNetwork() async throws {
        let renderer = Renderer(configuration: RenderConfiguration(tabs: 1, isolation: .privateNetworkWithoutSandbox), logger: .silent)
        defer { renderer.shutdown() }
        try await renderer.start()
        let page = try await renderer.render("\(Self.site)/", handler: Self.slowPage(delay: 0)).get()
        #expect(String(decoding: page.html, as: UTF8.self).contains(#"<p id="data">arrived</p>"#))
    }

    @Test func noChromiumIsAClearError() async throws {
        let renderer = Renderer(configuration: RenderConfiguration(executable: "/nonexistent/chromium"), logger: .silent)
        await #expect(throws: RenderError.browserNotInstalled(path: "/nonexistent/chromium")) { try await renderer.start() }
        let error = RenderError.browserNotInstalled(path: "/nonexistent/chromium")
        #expect(error.category == .browser)
        #expect(error.hint.contains("chromium"))
        #expect(await renderer.render("https://x.test/", handler: StaticHandler([:])) == .failure(.browserUnavailable(error)))
    }
}
