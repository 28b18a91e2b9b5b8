import Foundation
import MirrorArchive
import MirrorCore
import MirrorCrawler
import MirrorStore

/// `mtls-mirror archive SITE`: packs a site's WARC files as a WACZ package.
struct ArchiveCommand {
    static let spec = CommandSpec(
        name: "archive",
        summary: "pack a site's WARC files (from mirror --warc) as a WACZ package for ReplayWeb.page and pywb",
        usage: "mtls-mirror archive SITE [-o DIR | --config FILE] [--wacz FILE]",
        discussion: """
            Packs every finished WARC file of DIR/SITE/archive/ into one WACZ 1.1.1 package: the WARC files \
            (stored, not recompressed), one sorted CDXJ index of every capture (indexes/index.cdxj), the \
            HTML pages captured (pages/pages.jsonl) and datapackage.json with the SHA-256 of every file. \
            The site's lock is taken first, and a WARC file that a killed run left open is finished (its \
            last, incomplete record cut off) before it is packed. The package is written under a temporary \
            name and renamed when complete (0600); an existing file is never overwritten.
            """,
        options: [
            OptionSpec("output", short: "o", value: "DIR", help: "The output root (default: the config's output, or ./output)."),
            OptionSpec("config", short: "c", value: "FILE", help: "Take the output root from FILE (default ./config.json)."),
            OptionSpec("wacz", value: "FILE", help: "Where to write the package (default DIR/SITE/SITE-TIMESTAMP.wacz)."),
        ],
        examples: [
            "mtls-mirror archive intranet -o /srv/mirrors",
            "mtls-mirror archive intranet --wacz /tmp/intranet.wacz   # open it in https://replayweb.page/",
        ])

    let arguments: ParsedArguments
    let logger: Logger
    /// Where the package's path is printed (standard output; tests pass a file).
    var output: Int32 = 1

    func run() async throws -> ExitCode {
        guard arguments.positionals.count == 1, let site = arguments.positionals.first else {
            throw UsageError("archive takes exactly one SITE (got \(arguments.positionals.count))",
                             hint: "mtls-mirror archive SITE -o DIR")
        }
        try MirrorCommand.validateSiteName(site)
        let folders = try SiteFolders.resolve(arguments, logger: logger)
        let directory = folders.directory(of: site)
        let archive = SiteRun.archiveFolder(siteDirectory: directory)
        guard FileManager.default.fileExists(atPath: archive) else {
            throw ArchiveError.noArchive(site: site, folder: archive)
        }
        let lock: SiteLock
        do {
            lock = try SiteLock.acquire(siteDirectory: directory, site: site, command: "archive")
        } catch {
            logger.error(error.summary, hint: CommandLineHint.hint(for: error), category: error.category.rawValue)
            return .busy
        }
        defer { lock.release() }
        for name in try ArchiveFolder.finishInterrupted(in: archive) {
            logger.info("\(site): finished \(name), which an interrupted run had left open")
        }
        let now = Date()
        let target = arguments.value("wacz") ?? directory + "/\(site)-\(WARCDate.timestamp(now)).wacz"
        guard !FileManager.default.fileExists(atPath: target) else {
            throw UsageError("\(target) exists already", hint: "remove it or pass --wacz FILE")
        }
        let summary = try WACZPackage.build(archiveFolder: archive, site: site, mainPage: Self.startURL(directory),
                                            to: target, date: now)
        logger.info("\(site): packed \(summary.warcs.count) WARC file(s), \(summary.captures) capture(s) and "
                    + "\(summary.pages) page(s) into \(summary.path) (\(summary.bytes) bytes)")
        Terminal.write(summary.path + "\n", to: output)
        return .success
    }

    /// The first start URL of the current snapshot's report, if any.
    static func startURL(_ directory: String) -> String? {
        guard let data = FileManager.default.contents(atPath: directory + "/current/_mirror/report.json"),
              let report = try? JSONDecoder.iso8601.decode(CrawlReport.self, from: data) else { return nil }
        return report.startURLs.first
    }
}
