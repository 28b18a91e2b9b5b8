import Foundation
import MirrorCore

/// Runs `scripts/gen-site.py` to write a deterministic test site, and reads back the list of
/// URLs it computed as reachable from `/` (`_expected.json`), so that end-to-end tests can
/// assert that a mirror covers all of them.
///
/// ```swift
/// let scratch = try TemporaryDirectory()
/// let site = try SiteGenerator.generate(into: scratch.appending("www"), pages: 50)
/// // serve scratch/www with nginx (include site.typesConfiguration), mirror it, then:
/// #expect(site.expected.paths.contains("/kitchen/"))
/// ```
public enum SiteGenerator {
    /// What `_expected.json` says about a generated site.
    public struct Expected: Sendable, Decodable {
        /// One reachable URL path and the file that the origin serves for it.
        public struct Resource: Sendable, Decodable, Hashable {
            /// The percent-encoded URL path, e.g. `"/docs/"` or `"/img/caf%C3%A9.png"`.
            public var path: String
            /// The file under the site root, e.g. `"docs/index.html"` or `"img/café.png"`.
            public var file: String
            /// The MIME type nginx serves it with (via the generated `types` block).
            public var type: String
        }

        /// The CDN part, when the site was generated with a CDN host.
        public struct CDN: Sendable, Decodable, Hashable {
            /// The `HOST:PORT` given to the generator.
            public var host: String
            /// The reachable paths on that host (files under `_cdn/`).
            public var paths: [String]
        }

        /// The seed the site was made from.
        public var seed: Int
        /// Count of reachable resources served as `text/html`.
        public var htmlPages: Int
        /// Every reachable URL path of the origin, sorted.
        public var paths: [String]
        /// The same paths with their files and MIME types.
        public var resources: [Resource]
        /// Reachable `path?query` URLs whose query is not empty.
        public var withQuery: [String]
        /// The CDN's reachable paths, or nil.
        public var cdn: CDN?
        /// Absolute out-of-scope URLs the pages link to (a mirror must leave them absolute).
        public var external: [String]
    }

    /// A generated site.
    public struct Site: Sendable {
        /// The document root to serve.
        public var root: URL
        /// What the generator computed as reachable.
        public var expected: Expected
        /// The nginx `types { … } default_type text/html;` lines the site needs, to put inside
        /// a `server` or `location` block.
        public var typesConfiguration: String
    }

    /// Why a site could not be generated.
    public enum Failure: DiagnosableError {
        /// `python3` is not on `PATH`.
        case pythonMissing
        /// The generator exited with an error; `output` is what it printed on standard error.
        case generatorFailed(exitCode: Int32, output: String)
        /// `_expected.json` or `_nginx-types.conf` is missing or malformed.
        case unreadableOutput(path: String, reason: String)

        public var category: ErrorCategory { .internal }
        public var summary: String {
            switch self {
            case .pythonMissing: "python3 is not installed"
            case .generatorFailed(let exitCode, let output): "gen-site.py exited with \(exitCode): \(output)"
            case .unreadableOutput(let path, let reason): "cannot read \(path): \(reason)"
            }
        }
        public var hint: String {
            switch self {
            case .pythonMissing: "install python3 (scripts/install-deps.sh)"
            case .generatorFailed: "run scripts/gen-site.py by hand with the same arguments"
            case .unreadableOutput: "check that scripts/gen-site.py matches this test support code"
            }
        }
    }

    /// Writes a site into `root` and reads back its expectations.
    ///
    /// - Parameters:
    ///   - root: The folder to write (created if needed); it becomes nginx's document root.
    ///   - pages: The minimum number of HTML pages.
    ///   - seed: The random seed; the same seed and page count give the same bytes.
    ///   - cdnHost: `HOST:PORT` of a second origin for some requisites (files under `root/_cdn`).
    /// - Throws: ``Failure/pythonMissing``, ``Failure/generatorFailed(exitCode:output:)``,
    ///   ``Failure/unreadableOutput(path:reason:)``, or ``RepositoryRoot/Failure/notFound(start:)``.
    public static func generate(into root: URL, pages: Int, seed: Int = 1, cdnHost: String? = nil) throws -> Site {
        guard let python = CommandRunner.forTool(named: "python3") else { throw Failure.pythonMissing }
        let script = try RepositoryRoot.locate().appendingPathComponent("scripts/gen-site.py")
        var arguments = [script.path, root.path, "--pages", String(pages), "--seed", String(seed)]
        if let cdnHost { arguments += ["--cdn-host", cdnHost] }
        let result = python.run(arguments, timeout: 120)
        guard result.succeeded else { throw Failure.generatorFailed(exitCode: result.exitCode, output: result.stderr) }
        let expectedURL = root.appendingPathComponent("_expected.json")
        let typesURL = root.appendingPathComponent("_nginx-types.conf")
        let expected: Expected
        let types: String
        do {
            expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: expectedURL))
            types = try String(contentsOf: typesURL, encoding: .utf8)
        } catch {
            throw Failure.unreadableOutput(path: expectedURL.path, reason: "\(error)")
        }
        return Site(root: root, expected: expected, typesConfiguration: types)
    }
}
