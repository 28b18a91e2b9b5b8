import Foundation
import MirrorCore
import MirrorScheduler
import MirrorStore

/// `mtls-mirror snapshots [SITE]`: the snapshots of each site and its last refresh runs.
struct SnapshotsCommand {
    static let spec = CommandSpec(
        name: "snapshots",
        summary: "list each site's snapshots (current marked) and its last refresh runs",
        usage: "mtls-mirror snapshots [SITE] [-o DIR | --config FILE] [--runs N] [--json]",
        discussion: """
            For every site (or just SITE) under the output root: the published snapshots, oldest first, \
            with their date, pages and size from the snapshot's report, the one `current` points at \
            marked with *, and the last runs from DIR/SITE/history.jsonl. Reads only; needs no lock.
            """,
        options: [
            OptionSpec("output", short: "o", value: "DIR", help: "The output root (default: the config's output)."),
            OptionSpec("config", short: "c", value: "FILE", help: "Take the output root and sites from FILE (default ./config.json)."),
            OptionSpec("runs", value: "N", help: "Show the last N runs per site (default 5, 0 for none)."),
            OptionSpec("json", help: "Print one JSON document instead of text."),
        ],
        examples: [
            "mtls-mirror snapshots -o /srv/mirrors",
            "mtls-mirror snapshots intranet --config /etc/mtls-mirror/config.json",
            "mtls-mirror snapshots --json -o output | jq '.sites[].snapshots[] | select(.isCurrent)'",
        ],
        operands: .site)

    /// One site in the listing (also the `--json` shape).
    struct SiteListing: Encodable {
        var name: String
        var directory: String
        var snapshots: [SnapshotInfo]
        var runs: [RunRecord]
    }

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
        guard arguments.positionals.count <= 1 else {
            throw UsageError("snapshots takes at most one SITE (got \(arguments.positionals.count))", hint: "mtls-mirror snapshots [SITE] -o DIR")
        }
        let folders = try SiteFolders.resolve(arguments, logger: logger)
        let runCount = try arguments.int("runs") ?? 5
        var names = folders.sites
        if let wanted = arguments.positionals.first {
            guard FileManager.default.fileExists(atPath: folders.directory(of: wanted) + "/snapshots") else {
                throw UsageError("no site \"\(wanted)\" in \(folders.outputRoot)",
                                 hint: names.isEmpty ? "mirror it first" : "sites there: \(names.joined(separator: ", "))")
            }
            names = [wanted]
        }
        let listings = try names.map { name throws -> SiteListing in
            let directory = folders.directory(of: name)
            let snapshots = FileManager.default.fileExists(atPath: directory + "/snapshots")
                ? try SnapshotStore(siteDirectory: directory).list() : []
            let runs = runCount > 0 ? RunHistory(siteDirectory: directory).load(last: runCount) : []
            return SiteListing(name: name, directory: directory, snapshots: snapshots, runs: runs)
        }
        if arguments.flag("json") {
            Terminal.write(try Self.json(listings), to: output)
        } else if listings.isEmpty {
            logger.info("no mirrored sites in \(folders.outputRoot)")
        } else {
            Terminal.write(Self.text(listings), to: output)
        }
        return .success
    }

    /// The `--json` document: `{"outputRoot"…, "sites": [{name, directory, snapshots, runs}]}`.
    static func json(_ listings: [SiteListing]) throws -> String {
        struct Document: Encodable { var sites: [SiteListing] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(Document(sites: listings)), as: UTF8.self) + "\n"
    }

    /// The text listing: one block per site.
    static func text(_ listings: [SiteListing]) -> String {
        var lines: [String] = []
        for site in listings {
            lines.append("\(site.name)  (\(site.directory))")
            if site.snapshots.isEmpty { lines.append("  no snapshots") }
            for snapshot in site.snapshots.reversed() {
                var line = (snapshot.isCurrent ? "  * " : "    ") + snapshot.id.padding(toLength: max(30, snapshot.id.count + 2), withPad: " ", startingAt: 0)
                line += (snapshot.date.map(format) ?? "-").padding(toLength: 22, withPad: " ", startingAt: 0)
                line += (snapshot.pages.map { "\($0) pages" } ?? "").padding(toLength: 13, withPad: " ", startingAt: 0)
                line += snapshot.bytes.map(NumberText.byteCount) ?? ""
                if let failed = snapshot.failed, failed > 0 { line += "  (\(failed) failed)" }
                while line.hasSuffix(" ") { line.removeLast() }
                lines.append(line)
            }
            if !site.runs.isEmpty {
                lines.append("  last runs:")
                for run in site.runs.reversed() {
                    var line = "    \(format(run.startedAt))  \(run.outcome.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) exit \(run.exitCode)"
                    line += "  " + NumberText.fixed(run.durationSeconds, fractionDigits: 1) + " s"
                    line += "  +\(run.counts.added) ~\(run.counts.changed) -\(run.counts.removed) =\(run.counts.unchanged) !\(run.counts.failed)"
                    if let error = run.error { line += "  \(error)" }
                    lines.append(line)
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `2027-01-15 08:00 UTC`.
    static func format(_ date: Date) -> String {
        UTCTime.minuteStamp(date)
    }
}
