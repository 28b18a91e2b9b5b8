import Foundation
import MirrorCore

/// Where the site folders are for commands that read or change snapshots: `-o DIR` (every
/// folder in DIR with a `snapshots/` inside), or `--config FILE` (its output root and sites).
struct SiteFolders {
    /// The output root, absolute.
    let outputRoot: String
    /// The known site names, sorted (config order when from a config).
    let sites: [String]

    /// Resolves `-o`/`--config` of `arguments`.
    /// - Throws: ``UsageError`` when both are missing and there is no ./config.json; config
    ///   errors from ``MirrorConfig/load(path:)``.
    static func resolve(_ arguments: ParsedArguments, logger: Logger) throws -> SiteFolders {
        if let output = arguments.value("output"), arguments.value("config") == nil {
            let root = absolute(output)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            let sites = names.filter { name in
                var isDirectory: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(atPath: root + "/" + name + "/snapshots", isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }
            return SiteFolders(outputRoot: root, sites: sites.sorted())
        }
        guard arguments.value("config") != nil || FileManager.default.fileExists(atPath: "config.json") else {
            throw UsageError("no output folder given and no ./config.json here", hint: "give -o DIR (the mirror's output root) or --config FILE")
        }
        let config = try ConfigRunner(arguments: arguments, logger: logger).loadConfig()
        let root = arguments.value("output").map(absolute) ?? config.output
        return SiteFolders(outputRoot: root, sites: config.sites.map(\.name))
    }

    /// The folder of a site.
    func directory(of site: String) -> String { outputRoot + "/" + site }

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let cwd = FileManager.default.currentDirectoryPath
        return (cwd.hasSuffix("/") ? cwd : cwd + "/") + path
    }
}
