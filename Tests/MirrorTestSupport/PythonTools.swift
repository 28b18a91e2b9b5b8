import Foundation

/// The Python tools that check mtls-mirror's output (warcio, cdxj-indexer, wacz, pywb,
/// kubernetes-validate), from the private virtual environment that `scripts/install-deps.sh`
/// fills from `scripts/python-requirements.txt`.
///
/// The environment lives at `$MTLS_MIRROR_VENV`, or `~/.cache/mtls-mirror/venv` by default,
/// outside the repository so that a fresh clone reuses it; kubernetes-validate lives in
/// `…/venv-kubernetes` beside it (``environment(of:)``).
public enum PythonTools {
    /// The virtual environment's folder.
    public static var environment: URL {
        if let custom = ProcessInfo.processInfo.environment["MTLS_MIRROR_VENV"], !custom.isEmpty {
            return URL(fileURLWithPath: custom, isDirectory: true)
        }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/mtls-mirror/venv", isDirectory: true)
    }

    /// Tools that live in an environment of their own, beside the main one, because their
    /// dependencies conflict with it: kubernetes-validate needs jsonschema >= 4.18, which
    /// frictionless (under wacz) forbids (scripts/python-requirements-kubernetes.txt).
    static let ownEnvironments = ["kubernetes-validate": "kubernetes"]

    /// The environment that holds the console script `name`.
    public static func environment(of name: String) -> URL {
        guard let suffix = ownEnvironments[name] else { return environment }
        return environment.deletingLastPathComponent().appendingPathComponent(environment.lastPathComponent + "-" + suffix, isDirectory: true)
    }

    /// The console script `name` of the environment (`warcio`, `wacz`, `wb-manager`, …).
    ///
    /// - Throws: ``Missing`` when it is not installed, naming the command that installs it:
    ///   a test that needs it fails rather than passing silently.
    public static func tool(_ name: String) throws -> URL {
        let url = environment(of: name).appendingPathComponent("bin/\(name)")
        guard FileManager.default.isExecutableFile(atPath: url.path) else { throw Missing(tool: name, path: url.path) }
        return url
    }

    /// A runner for the console script `name`, in `directory`.
    public static func runner(_ name: String, in directory: URL? = nil) throws -> CommandRunner {
        CommandRunner(executable: try tool(name), workingDirectory: directory)
    }

    /// A tool the environment does not have.
    public struct Missing: Error, CustomStringConvertible {
        public let tool: String
        public let path: String
        public var description: String { "\(tool) is not installed at \(path): run scripts/install-deps.sh" }
    }
}
