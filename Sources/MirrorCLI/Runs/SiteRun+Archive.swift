import Foundation
import MirrorArchive
import MirrorCore
import MirrorCrawler
import MirrorHTTP
#if canImport(Glibc)
import Glibc
#endif

/// Archive output for a site run (`mirror --warc`, `sites[].archive`): the sink is opened once
/// the site's lock is held, the crawl's requests carry its capture options, and it is finished
/// however the crawl ended, so that every exchange that happened is in a closed WARC file.
extension SiteRun {
    /// The archive folder of a site.
    static func archiveFolder(siteDirectory: String) -> String { siteDirectory + "/archive" }

    /// Opens the site's archive sink when archive output is on.
    /// - Throws: ``ArchiveError`` when the archive folder cannot be prepared.
    func openArchive(command: String) throws(ArchiveError) -> ArchiveSink? {
        guard let archive, archive.enabled else { return nil }
        let configuration = ArchiveSink.Configuration(
            site: job.name, folder: Self.archiveFolder(siteDirectory: job.siteDirectory), maxFileSize: archive.maxFileSize,
            redactedHeaders: archive.redactedHeaders, info: Self.warcinfo(job: job, security: security, command: command, archive: archive))
        let sink = try ArchiveSink.open(configuration)
        return sink
    }

    /// Finishes the sink and logs what it wrote. Returns the exit code of an archive failure.
    func finishArchive(_ sink: ArchiveSink?) async -> ExitCode? {
        guard let sink else { return nil }
        do {
            let summary = try await sink.finish()
            for name in summary.recovered {
                logger.info("\(job.name): finished \(name), which an interrupted run had left open")
            }
            logger.info("\(job.name): archived \(summary.exchanges) exchange(s) (\(summary.revisits) revisit(s)) in "
                        + "\(summary.files.count) WARC file(s), \(summary.bytes) bytes, in \(sink.warcFolder)")
            logger.debug("\(job.name): the archive's writer thread used \(NumberText.fixed(summary.writerCPUSeconds, fractionDigits: 3)) s of CPU")
            return nil
        } catch {
            logger.error("\(job.name): the archive is incomplete: \(error.summary)", hint: CommandLineHint.hint(for: error), category: error.category.rawValue)
            return ExitCode(error.category)
        }
    }

    /// The `warcinfo` block: the tool, its version, and what the run was asked to do, without
    /// secrets (extra headers by name only; the client certificate by subject and fingerprint).
    static func warcinfo(job: SiteJob, security: SecurityPolicy, command: String, archive: ArchiveConfig) -> WARCFields {
        var fields = WARCFields()
        fields.append("software", "mtls-mirror/\(MirrorVersion.string)")
        fields.append("format", "WARC File Format 1.1")
        fields.append("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/")
        fields.append("isPartOf", job.name)
        fields.append("description", "mtls-mirror \(command) of \(job.startURLs.map(\.string).joined(separator: " "))")
        var host = [CChar](repeating: 0, count: 256)
        if gethostname(&host, host.count - 1) == 0 {
            fields.append("hostname", String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        fields.append("http-header-user-agent", job.userAgent)
        fields.append("robots", job.respectRobots ? "obey" : "ignore")
        var options: [String] = ["jobs=\(job.jobs)"]
        if let depth = job.scope.maxDepth { options.append("depth=\(depth)") }
        if job.scope.noParent { options.append("no-parent") }
        options += job.scope.includes.map { "include=\($0)" } + job.scope.excludes.map { "exclude=\($0)" }
        if !job.scope.requisiteHosts.isEmpty { options.append("requisite-hosts=\(job.scope.requisiteHosts.joined(separator: ","))") }
        if let pages = job.limits.maxPages { options.append("max-pages=\(pages)") }
        if let bytes = job.limits.maxBytes { options.append("max-bytes=\(bytes)") }
        options += ["max-file-size=\(job.limits.maxFileSize)", "max-redirs=\(job.redirects.maxRedirects)",
                    "incremental=\(job.incremental)", "warc-max-size=\(archive.maxFileSize)"]
        fields.append("mtls-mirror-options", options.joined(separator: " "))
        if !job.headers.isEmpty {
            fields.append("mtls-mirror-extra-headers", job.headers.map(\.name).joined(separator: ", ") + " (values not recorded)")
        }
        fields.append("mtls-mirror-redacted-headers", archive.redactedHeaders.sorted().joined(separator: ", "))
        if let identity = security.identity {
            fields.append("mtls-mirror-client-certificate", "\(identity.leaf.subject) (sha256 \(identity.leaf.sha256))")
        }
        return fields
    }
}
