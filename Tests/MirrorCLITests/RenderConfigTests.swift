import Foundation
import MirrorRender
import Testing
@testable import MirrorCLI
@testable import MirrorCrawler

/// The `render` key of a site in config.json: `true`, `false` or an object; what it becomes
/// in the crawl job; errors that name the field; the dump loads back equal.
@Suite struct RenderConfigTests {
    @Test func trueRendersEveryPageWithTheDefaults() throws {
        let config = try ConfigFixture().load(ConfigFixture.site(#""render": true"#))
        #expect(config.sites[0].render == RenderConfig())
        let job = try config.sites[0].makeJob(outputRoot: "/tmp/out", jobs: 8)
        let settings = try #require(job.render)
        #expect(settings.browser.tabs == RenderConfiguration.defaultTabs && settings.scripts == .neutralise)
        #expect(settings.includes.isEmpty && settings.excludes.isEmpty)
    }

    @Test func falseAndAbsentRenderNothing() throws {
        let fixture = try ConfigFixture()
        #expect(try fixture.load(ConfigFixture.site(#""render": false"#)).sites[0].render == nil)
        #expect(try fixture.load(ConfigFixture.site("")).sites[0].render == nil)
        #expect(try fixture.load(ConfigFixture.site("")).sites[0].makeJob(outputRoot: "/tmp/out", jobs: 8).render == nil)
    }

    @Test func everyKeyReachesTheJob() throws {
        let config = try ConfigFixture().load(ConfigFixture.site("""
            "render": {"include": ["/app/", "regex:^/$"], "exclude": ["/app/admin/"], "jobs": 6, "timeout": "20s",
              "quiet": "250ms", "timers": "3s", "maxRequests": 200, "maxBytes": "16MiB", "scripts": "keep"}
            """))
        let settings = try #require(try config.sites[0].makeJob(outputRoot: "/tmp/out", jobs: 8).render)
        #expect(settings.includes == [.prefix("/app/"), .regex("^/$")] && settings.excludes == [.prefix("/app/admin/")])
        #expect(settings.browser.tabs == 6 && settings.scripts == .keep)
        #expect(settings.browser.budget == PageBudget(time: 20, quiet: 0.25, maximumRequests: 200, maximumBytes: 16 << 20, timers: 3))
        let dump = config.dumpRedacted()
        #expect(dump.contains(#""scripts": "keep""#) && dump.contains(#""maxRequests": 200"#) && dump.contains(#""timers": "3s""#))
        #expect(try ConfigFixture().load(dump, name: "dumped.json") == config)
    }

    @Test(arguments: [
        (#""render": {"jobs": 0}"#, "sites[0].render.jobs"),
        (#""render": {"scripts": "run"}"#, "sites[0].render.scripts"),
        (#""render": {"timeout": "soon"}"#, "sites[0].render.timeout"),
        (#""render": {"timers": -1}"#, "sites[0].render.timers"),
        (#""render": {"include": ["docs/"]}"#, "sites[0].render.include[0]"),
        (#""render": "yes""#, "sites[0].render"),
    ])
    func badValuesNameTheirField(fragment: String, field: String) throws {
        let error = try #require(ConfigFixture().error(ConfigFixture.site(fragment)))
        guard case .invalid(_, let fieldPath, _, _) = error else { Issue.record("\(error)"); return }
        #expect(fieldPath == field, "\(error)")
    }

    @Test func anUnknownKeyGetsASuggestion() throws {
        let error = try #require(ConfigFixture().error(ConfigFixture.site(#""render": {"job": 2}"#)))
        guard case .unknownKey(_, let fieldPath, let key, let suggestion) = error else { Issue.record("\(error)"); return }
        #expect(fieldPath == "sites[0].render" && key == "job" && suggestion == "jobs")
    }

    @Test func theBrowserBinaryComesFromTheEnvironment() {
        #expect(RenderConfig.browserExecutable(environment: [:]) == "/usr/lib/chromium/chromium")
        #expect(RenderConfig.browserExecutable(environment: ["MTLS_MIRROR_CHROMIUM": "/opt/chromium/chrome"]) == "/opt/chromium/chrome")
    }
}
