import Foundation

extension CommandRunner {
    /// The product `name` built by SwiftPM for these tests, such as `mtls-mirror`.
    ///
    /// Tests run after `swift build`, and SwiftPM puts executables next to the test bundle, so
    /// the search looks, in order, in: the directory of the running test executable, the
    /// directories holding loaded `.xctest` bundles, and `<repository>/.build/debug`. When the
    /// file is in none of them the last candidate is returned, and running it gives a
    /// ``Result`` with exit code 127 that names the missing path.
    ///
    /// - Parameters:
    ///   - name: The product name.
    public static func builtBinary(named name: String) -> URL {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let root = try? RepositoryRoot.locate() {
            directories.append(root.appendingPathComponent(".build/debug", isDirectory: true))
        }
        let candidates = directories.map { $0.appendingPathComponent(name) }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return found ?? candidates.last ?? URL(fileURLWithPath: name)
    }

    /// The program `name` found on `PATH` (plus `/usr/sbin` and `/usr/local/sbin`, which a
    /// non-root `PATH` often lacks), or `nil` when it is not installed.
    ///
    /// - Parameters:
    ///   - name: A program name such as `"curl"` or `"nginx"`.
    public static func tool(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init)
            + ["/usr/sbin", "/usr/local/sbin", "/usr/local/bin", "/opt/homebrew/bin", "/sbin"]
        for directory in directories where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// A runner for the program `name` on `PATH`, or `nil` when it is not installed.
    ///
    /// - Parameters:
    ///   - name: A program name such as `"curl"`.
    public static func forTool(named name: String) -> CommandRunner? {
        tool(named: name).map { CommandRunner(executable: $0) }
    }
}
