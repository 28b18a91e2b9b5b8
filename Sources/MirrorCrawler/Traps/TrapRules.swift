/// The limits of the crawler-trap defences, each `nil` when switched off.
///
/// Intranets are full of calendars whose every month links the next, session ids that grow in
/// the query, "next" links that never end and faceted searches, and a crawl that follows them
/// never finishes. These rules hold back the page links that only such a trap produces; the
/// URL then gets the placeholder page that names the rule, and the run's report lists it.
/// Requisites (images, stylesheets, scripts) and start URLs are never held back.
///
/// The defaults (``defaults``) follow Heritrix, whose crawl jobs switch on
/// `TooManyHopsDecideRule` (20 hops), `TooManyPathSegmentsDecideRule` (20 segments) and
/// `PathologicalPathDecideRule` (2 repetitions) by default; the others were chosen by measuring
/// the generated benchmark site and Debian's documentation sites (nothing held back) against
/// the hostile fixture (every trap cut after a few dozen requests): see the README,
/// "Crawler traps".
public struct TrapRules: Sendable, Equatable {
    /// Pages whose path has more segments are held back (``TrapRule/pathSegments``).
    public var maxPathSegments: Int?
    /// Pages whose path repeats a segment (or a run of segments) more often in a row are held
    /// back (``TrapRule/repeatedSegment``).
    public var maxSegmentRepeats: Int?
    /// Distinct query strings one path may have (``TrapRule/queryVariants``). A value made only
    /// of digits (an id, a page number) counts as one, so `?pageId=1…99999` is one variant:
    /// chains of those are the ``maxShapeChain`` rule's.
    public var maxQueryVariants: Int?
    /// Steps of a value that only grows (``TrapRule/growingValue``).
    public var maxGrowingSteps: Int?
    /// Links of a same-shape chain (``TrapRule/shapeChain``).
    public var maxShapeChain: Int?

    /// Creates rules; every limit defaults to off.
    public init(maxPathSegments: Int? = nil, maxSegmentRepeats: Int? = nil, maxQueryVariants: Int? = nil,
                maxGrowingSteps: Int? = nil, maxShapeChain: Int? = nil) {
        self.maxPathSegments = maxPathSegments
        self.maxSegmentRepeats = maxSegmentRepeats
        self.maxQueryVariants = maxQueryVariants
        self.maxGrowingSteps = maxGrowingSteps
        self.maxShapeChain = maxShapeChain
    }

    /// Every rule off.
    public static let off = TrapRules()

    /// The defaults of `mirror`, `refresh` and `config.json`.
    public static let defaults = TrapRules(
        maxPathSegments: 20, maxSegmentRepeats: 2, maxQueryVariants: 100, maxGrowingSteps: 3, maxShapeChain: 20)

    /// The crawl depth that goes with the defaults (``ScopeConfiguration/maxDepth``): 20 page
    /// links from a start URL, as Heritrix's `TooManyHopsDecideRule`.
    public static let defaultDepth = 20

    /// Whether any rule is on.
    public var isActive: Bool {
        maxPathSegments != nil || maxSegmentRepeats != nil || maxQueryVariants != nil || maxGrowingSteps != nil
            || maxShapeChain != nil
    }
}
