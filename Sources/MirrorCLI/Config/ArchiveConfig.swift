import MirrorArchive

/// A site's archive output (`sites[].archive`, or `mirror --warc`): WARC 1.1 files written
/// from the crawl's own fetches into `output/NAME/archive/`.
public struct ArchiveConfig: Sendable, Equatable {
    /// Whether WARC files are written (an `archive` object turns it on unless it says `false`).
    public var enabled = true
    /// A WARC file is closed and the next begun past this size. Default 1 GiB.
    public var maxFileSize: Int64 = 1 << 30
    /// Headers redacted in addition to the default list.
    public var redactHeaders: [String] = []
    /// Headers of the default list kept as they were (the user opts in).
    public var keepHeaders: [String] = []

    /// The defaults listed on each property.
    public init() {}

    /// The header names (lower case) whose values are replaced in records.
    public var redactedHeaders: Set<String> {
        WARCRecordBuilder.defaultRedactedHeaders.union(redactHeaders.map { $0.lowercased() })
            .subtracting(keepHeaders.map { $0.lowercased() })
    }

    /// The smallest size limit accepted.
    static let minimumFileSize: Int64 = 1 << 20
}
