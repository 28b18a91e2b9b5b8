/// One of the crawler-trap defences: a rule that holds back a page link only a trap would
/// produce (see ``TrapRules``). Its raw value is the name that `report.json`, the manifest and
/// the placeholder page of a held-back URL give it.
public enum TrapRule: String, Sendable, CaseIterable, Codable {
    /// The link is more page links away from a start URL than the depth limit allows
    /// (``ScopeConfiguration/maxDepth``; Heritrix's `TooManyHopsDecideRule`).
    case depth = "depth"
    /// The path has more segments than ``TrapRules/maxPathSegments`` (Heritrix's
    /// `TooManyPathSegmentsDecideRule`).
    case pathSegments = "path-segments"
    /// A segment, or a run of segments, repeats in a row more often than
    /// ``TrapRules/maxSegmentRepeats`` (`/x/y/y/y/`, `/a/b/a/b/a/b/`: the mark of relative links
    /// that loop; Heritrix's `PathologicalPathDecideRule`).
    case repeatedSegment = "repeated-segment"
    /// The path has more distinct query strings than ``TrapRules/maxQueryVariants`` (faceted
    /// search, sort orders, filters combined without end).
    case queryVariants = "query-variants"
    /// A query value or path segment that only grows from page to page (a session id each
    /// page extends), longer than ``TrapRules/maxGrowingSteps`` steps.
    case growingValue = "growing-value"
    /// A chain of pages that each lead to one more page of the same shape (a calendar's "next
    /// month", a counter in the path or query), longer than ``TrapRules/maxShapeChain``.
    case shapeChain = "shape-chain"

    /// The command-line option that sets or switches off the rule.
    public var option: String {
        switch self {
        case .depth: "--depth"
        case .pathSegments: "--max-path-segments"
        case .repeatedSegment: "--max-segment-repeats"
        case .queryVariants: "--max-query-variants"
        case .growingValue: "--max-growing-steps"
        case .shapeChain: "--max-shape-chain"
        }
    }

    /// The `config.json` key (under `scope` for the depth, `traps` for the others).
    public var configKey: String {
        switch self {
        case .depth: "scope.depth"
        case .pathSegments: "traps.maxPathSegments"
        case .repeatedSegment: "traps.maxSegmentRepeats"
        case .queryVariants: "traps.maxQueryVariants"
        case .growingValue: "traps.maxGrowingSteps"
        case .shapeChain: "traps.maxShapeChain"
        }
    }

    /// What the rule guards against, in a sentence for the placeholder page.
    public var explanation: String {
        switch self {
        case .depth: "it is more page links away from the start page than the crawl follows"
        case .pathSegments: "its path is deeper (more folders) than ordinary sites go"
        case .repeatedSegment: "its path repeats the same folders over and over, as relative links that loop produce"
        case .queryVariants: "its page already has as many different query strings as the crawl allows for one path"
        case .growingValue: "a value in its URL grows from page to page, as session ids in a loop do"
        case .shapeChain: "it ends a long chain of pages of the same shape that each link one more (a calendar's next month, a counter)"
        }
    }
}
