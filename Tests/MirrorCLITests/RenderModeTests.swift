import Foundation
import MirrorTestSupport
import Testing

/// `mirror --render` end to end: the built binary mirrors an application whose content,
/// navigation and images exist only after scripts fetched JSON, from a real nginx that
/// requires client certificates, through a real headless Chromium.
@Suite(.serialized) struct RenderModeTests {
    static let pages = 12
    static let fixture = Result { () throws -> (NginxFixture, AppSiteGenerator.Site) in
        let scratch = try TemporaryDirectory()
        let probe = try AppSiteGenerator.generate(into: scratch.url.appendingPathComponent("probe"), pages: 1)
        let origin = try NginxFixture(.mtls, options: .init(extraServerDirectives: probe.serverDirectives))
        let site = try AppSiteGenerator.generate(into: origin.site.root, pages: pages, seed: 5)
        return (origin, site)
    }

    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    func tlsArguments(_ pki: TestPKI) -> [String] {
        ["--cacert", pki.path("server-root.pem"), "--cert", pki.path("client.p12"), "--pass-env", "RENDER_TEST_PASS"]
    }

    func environment(_ pki: TestPKI) -> [String: String] {
        ["RENDER_TEST_PASS": pki.password, "NO_COLOR": "1"]
    }

    @Test func mirrorsTheRenderedApplication() async throws {
        let (origin, site) = try Self.fixture.get()
        let output = try TemporaryDirectory()
        let result = runner.run(["mirror", origin.url(.mtls), "-o", output.path, "--name", "app", "--render"] + tlsArguments(origin.pki),
                                environment: environment(origin.pki), timeout: 300)
        #expect(result.exitCode == 0, "\(result)")
        let snapshot = output.url.appendingPathComponent("app/current")
        for page in site.expected.pages {
            let file = snapshot.appendingPathComponent(page == "/" ? "index.html" : String(page.dropFirst()))
            let html = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            #expect(html.contains(site.expected.tokens[page] ?? "?"), "\(page) lacks its rendered text")
        }
    }
}
