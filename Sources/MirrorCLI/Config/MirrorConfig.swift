import Foundation
import MirrorCrawler

/// The whole `config.json`: where mirrors go, how many transfers run at once, the sites, and
/// the local server.
///
/// Load it with ``load(path:)``. Every path in it is absolute (relative paths in the file are
/// taken from the file's folder), every default is filled in, and every value was checked, so
/// the commands that use it do no further validation of their own.
public struct MirrorConfig: Sendable, Equatable {
    /// The root folder of all mirrors (absolute). Default `output` beside the config file.
    public var output: String
    /// Concurrent transfers across all sites (1…1024). Default ``MirrorCrawler/SiteJob/defaultJobs``.
    public var jobs: Int
    /// The sites, in file order; names are unique.
    public var sites: [SiteConfig]
    /// The local server's settings.
    public var serve: ServeConfig
    /// Dangerous settings the CLI must print loudly on every run, each starting with the field
    /// path (`sites[0].trust.default: server verification is DISABLED …`).
    public var warnings: [String]

    /// The largest config file accepted.
    static let maximumFileSize = 4 << 20

    /// Creates a config from parts (tests, `mirror URL` without a file).
    public init(output: String, jobs: Int = SiteJob.defaultJobs, sites: [SiteConfig], serve: ServeConfig = ServeConfig(), warnings: [String] = []) {
        self.output = output
        self.jobs = jobs
        self.sites = sites
        self.serve = serve
        self.warnings = warnings
    }

    /// Reads and validates a config file.
    ///
    /// - Parameter path: the file, absolute or relative to the working directory; errors name
    ///   it as given.
    /// - Returns: the validated config.
    /// - Throws: ``ConfigError/cannotRead(path:reason:)`` when the file cannot be read, and
    ///   everything ``parse(_:path:)`` throws.
    public static func load(path: String) throws(ConfigError) -> MirrorConfig {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .cannotRead(path: path, reason: "not a regular file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += chunk[..<count]
            guard bytes.count <= maximumFileSize else {
                throw .cannotRead(path: path, reason: "larger than \(maximumFileSize >> 20) MiB; this is not a config file")
            }
        }
        return try parse(Data(bytes), path: path)
    }

    /// Validates config text that was read from `path`.
    ///
    /// - Parameters:
    ///   - data: the file's content (UTF-8 JSON).
    ///   - path: the file it came from; errors start with it and relative paths in the config
    ///     resolve against its folder.
    /// - Returns: the validated config, with defaults filled in and ``warnings`` computed.
    /// - Throws: ``ConfigError/invalidJSON(path:line:column:reason:)`` for malformed JSON;
    ///   ``ConfigError/invalid(file:fieldPath:expected:found:)``,
    ///   ``ConfigError/unknownKey(file:fieldPath:key:suggestion:)``,
    ///   ``ConfigError/missing(file:fieldPath:)`` and ``ConfigError/literalSecret(file:fieldPath:)``
    ///   for the first field that breaks the schema.
    public static func parse(_ data: Data, path: String) throws(ConfigError) -> MirrorConfig {
        let json: ConfigJSON
        do {
            json = try ConfigJSONParser.parse([UInt8](data))
        } catch {
            throw .invalidJSON(path: path, line: error.line, column: error.column, reason: error.reason)
        }
        let source = ConfigSource(file: path, directory: directory(of: path))
        var config = try MirrorConfig(decoding: ConfigNode(value: json, path: .root, source: source))
        config.warnings = config.computeWarnings()
        return config
    }

    /// The absolute folder holding `path`.
    private static func directory(of path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            let cwd = FileManager.default.currentDirectoryPath
            absolute = (cwd.hasSuffix("/") ? cwd : cwd + "/") + path
        }
        guard let slash = absolute.lastIndex(of: "/") else { return "/" }
        let folder = String(absolute[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
