import MirrorArchive

/// `mirror --warc` and its options: archive output as WARC 1.1 beside the mirror.
extension MirrorCommand {
    static let archiveOptions: [OptionSpec] = [
        OptionSpec("warc", help: "Also write WARC 1.1 files of every exchange, from the same fetches, into DIR/NAME/archive/ (a refresh writes revisit records for what did not change)."),
        OptionSpec("warc-max-size", value: "SIZE", help: "Close a WARC file and begin the next past SIZE (default 1GiB)."),
        OptionSpec("warc-redact-header", value: "NAME", repeatable: true, help: "Also redact this header's value in WARC records (Authorization, Cookie, Set-Cookie and Proxy-Authorization always are)."),
        OptionSpec("warc-keep-header", value: "NAME", repeatable: true, help: "Keep this header of the default redaction list as it was in WARC records (you opt in to archiving it)."),
    ]

    /// The archive settings of the command line over `configured` (a site's `archive` object):
    /// `--warc` turns archive output on; the other options change it. Nil: none.
    /// - Throws: ``UsageError`` for a bad size or header name.
    static func archive(_ arguments: ParsedArguments, configured: ArchiveConfig?) throws(UsageError) -> ArchiveConfig? {
        let asked = arguments.flag("warc")
        let tuned = arguments.value("warc-max-size") != nil || !arguments.all("warc-redact-header").isEmpty
            || !arguments.all("warc-keep-header").isEmpty
        if tuned && !asked && configured?.enabled != true {
            throw UsageError("--warc-max-size, --warc-redact-header and --warc-keep-header need --warc",
                             hint: "add --warc (or \"archive\": {} to the site in config.json)")
        }
        guard asked || configured != nil else { return nil }
        var archive = configured ?? ArchiveConfig()
        if asked { archive.enabled = true }
        if let text = arguments.value("warc-max-size") {
            guard let size = ConfigQuantity.bytes(text) else {
                throw UsageError("--warc-max-size needs a size such as 64MiB or 1GiB, not \"\(text)\"", hint: "for example --warc-max-size 1GiB")
            }
            guard size >= ArchiveConfig.minimumFileSize else {
                throw UsageError("--warc-max-size must be at least 1MiB, not \(text)", hint: "for example --warc-max-size 1GiB")
            }
            archive.maxFileSize = size
        }
        for name in arguments.all("warc-redact-header") + arguments.all("warc-keep-header") where !ArchiveConfig.isToken(name) {
            throw UsageError("\"\(name)\" is not a header name", hint: "use a name such as X-Api-Key")
        }
        archive.redactHeaders += arguments.all("warc-redact-header")
        archive.keepHeaders += arguments.all("warc-keep-header")
        return archive
    }
}
