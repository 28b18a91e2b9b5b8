import Foundation
import MirrorCore

/// Runs `scripts/gen-app-site.py` to write an *application* site, whose pages are empty
/// shells until their script has fetched JSON (render mode's fixture), and reads back what
/// each page shows once rendered (`_expected.json`).
///
/// ```swift
/// let site = try AppSiteGenerator.generate(into: origin.site.root, pages: 12)
/// // every path in site.expected.pages shows site.expected.texts[path] once rendered
/// ```
public enum AppSiteGenerator {
    /// What `_expected.json` says.
    public struct Expected: Sendable, Decodable {
        /// Every page path (`/`, `/pages/N.html`), reachable from `/` through script-built links only.
        public var pages: [String]
        /// The text each page shows once its script has run.
        public var texts: [String: String]
        /// A unique token inside each text.
        public var tokens: [String: String]
    }

    /// A generated site.
    public struct Site: Sendable {
        public var root: URL
        public var expected: Expected
        /// The nginx server-block lines the site needs (its POST endpoint).
        public var serverDirectives: String
    }

    /// Writes the site into `root` (its nginx document root) and reads its expectations.
    /// - Throws: ``SiteGenerator/Failure`` when python3 is missing or the generator fails.
    public static func generate(into root: URL, pages: Int, seed: Int = 1) throws -> Site {
        guard let python = CommandRunner.forTool(named: "python3") else { throw SiteGenerator.Failure.pythonMissing }
        let script = try RepositoryRoot.locate().appendingPathComponent("scripts/gen-app-site.py")
        let result = python.run([script.path, root.path, "--pages", String(pages), "--seed", String(seed)], timeout: 60)
        guard result.succeeded else { throw SiteGenerator.Failure.generatorFailed(exitCode: result.exitCode, output: result.stderr) }
        let expectedURL = root.appendingPathComponent("_expected.json")
        do {
            let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: expectedURL))
            // Only the endpoint: the fixture's own `types` block already covers the site.
            let directives = try String(contentsOf: root.appendingPathComponent("_nginx.conf"), encoding: .utf8)
                .split(separator: "\n").filter { $0.hasPrefix("location") }.joined(separator: "\n")
            return Site(root: root, expected: expected, serverDirectives: directives)
        } catch {
            throw SiteGenerator.Failure.unreadableOutput(path: expectedURL.path, reason: "\(error)")
        }
    }
}
