import Foundation
import MirrorCore
import MirrorCrawler

/// `mtls-mirror refresh [SITE...]`: brings config.json sites up to date, incrementally and
/// atomically, for unattended runs.
struct RefreshCommand {
    static let spec = CommandSpec(
        name: "refresh",
        summary: "refresh config.json sites incrementally: revalidate, fetch what changed, publish a new snapshot",
        usage: "mtls-mirror refresh [SITE...] [--config FILE] [-o DIR] [--full]",
        discussion: """
            Re-crawls each site with the validators stored in its manifest (If-None-Match / \
            If-Modified-Since, never file times). Unchanged files (304) are hard-linked from the \
            current snapshot and their stored links keep the crawl going, so every URL is \
            revalidated; changed ones are fetched and rewritten; new ones are found; gone ones \
            (404/410) are dropped. The new snapshot is published atomically; a run that fails or is \
            killed leaves the current one in place. One run per site at a time (a lock in the site \
            folder; a dead holder's lock is released by the kernel). Each run appends a line to \
            <site>/history.jsonl and keeps the newest refresh.keep snapshots. Exit 0: all sites \
            complete; 10: published with some failures (or some sites failed); 11: a site is busy.
            """,
        options: [
            OptionSpec("config", short: "c", value: "FILE", help: "The config to read (default ./config.json)."),
            OptionSpec("output", short: "o", value: "DIR", help: "Override the config's output root."),
            OptionSpec("full", help: "Download everything again instead of revalidating."),
            OptionSpec("max-run-time", value: "DURATION", help: "Time budget of each site's run (90s, 30m, 2h): then it publishes what it has, keeping the previous copy of the rest (stale), and exits 10."),
        ],
        examples: [
            "mtls-mirror refresh                 # every site of ./config.json",
            "mtls-mirror refresh intranet --config /etc/mtls-mirror/config.json",
        ],
        operands: .site)

    let arguments: ParsedArguments
    let logger: Logger
    /// Asks a run to stop early and publish what it has (a first signal).
    var control: RunControl? = nil

    func run() async throws -> ExitCode {
        try await ConfigRunner(arguments: arguments, logger: logger, control: control)
            .mirrorAll(command: "refresh", names: arguments.positionals.isEmpty ? nil : arguments.positionals)
    }
}
