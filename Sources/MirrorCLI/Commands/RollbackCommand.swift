import Foundation
import MirrorCore
import MirrorStore

/// `mtls-mirror rollback SITE [--to ID]`: point `current` at an earlier snapshot.
struct RollbackCommand {
    static let spec = CommandSpec(
        name: "rollback",
        summary: "switch a site's current snapshot back to an earlier one (atomically)",
        usage: "mtls-mirror rollback SITE [--to ID] [-o DIR | --config FILE]",
        discussion: """
            Points DIR/SITE/current at snapshot ID, or with no --to at the snapshot before the current \
            one. The switch is one atomic rename, so `serve` never sees a mix. The site's lock is taken \
            first: a rollback cannot race a refresh (it fails at once, naming the running one). A later \
            refresh publishes a new snapshot as usual; `snapshots` lists the ids.
            """,
        options: [
            OptionSpec("to", value: "ID", help: "The snapshot to make current (default: the one before the current one)."),
            OptionSpec("output", short: "o", value: "DIR", help: "The output root (default: the config's output)."),
            OptionSpec("config", short: "c", value: "FILE", help: "Take the output root from FILE (default ./config.json)."),
        ],
        examples: [
            "mtls-mirror rollback intranet -o /srv/mirrors",
            "mtls-mirror rollback intranet --to 20270115T080000Z-1a2b3c --config /etc/mtls-mirror/config.json",
        ],
        operands: .site)

    let arguments: ParsedArguments
    let logger: Logger
    /// Where results go (standard output; tests pass a file).
    let output: Int32

    init(arguments: ParsedArguments, logger: Logger, output: Int32 = 1) {
        self.arguments = arguments
        self.logger = logger
        self.output = output
    }

    func run() async throws -> ExitCode {
        guard arguments.positionals.count == 1, let site = arguments.positionals.first else {
            throw UsageError("rollback takes exactly one SITE (got \(arguments.positionals.count))", hint: "mtls-mirror rollback SITE [--to ID] -o DIR")
        }
        try MirrorCommand.validateSiteName(site)
        let folders = try SiteFolders.resolve(arguments, logger: logger)
        let directory = folders.directory(of: site)
        guard FileManager.default.fileExists(atPath: directory + "/" + SnapshotStore.snapshotsFolder) else {
            throw UsageError("no site \"\(site)\" in \(folders.outputRoot)",
                             hint: folders.sites.isEmpty ? "check -o DIR" : "sites there: \(folders.sites.joined(separator: ", "))")
        }
        let lock = try SiteLock.acquire(siteDirectory: directory, site: site, command: "rollback")
        defer { lock.release() }
        let store = try SnapshotStore(siteDirectory: directory)
        let previous = store.currentID
        let now = try store.rollback(to: arguments.value("to"))
        if previous == now {
            logger.info("\(site): \(now) is already current")
        } else {
            logger.info("\(site): current is now \(now) (was \(previous ?? "none"))")
        }
        Terminal.write(now + "\n", to: output)
        return .success
    }
}
