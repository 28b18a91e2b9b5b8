/// The highest value each crawler-trap rule measured on a page it let through in one crawl:
/// how close the site came to each limit. The report shows it (`trapPeaks`), so that limits can
/// be tuned to a site: a documentation site measured far below every default.
public struct TrapPeaks: Sendable, Equatable, Codable {
    /// The most path segments of an admitted page.
    public var pathSegments = 0
    /// The most times one segment occurred along an admitted page's path.
    public var segmentRepeats = 0
    /// The most distinct query strings one path had.
    public var queryVariants = 0
    /// The longest run of growing values.
    public var growingSteps = 0
    /// The longest same-shape chain.
    public var shapeChain = 0

    public init() {}
}
