import MirrorCore

/// Applies ``TrapRules`` to the page links a crawl discovers: the part of the frontier's state
/// machine that remembers what the rules need (the query variants seen per path).
///
/// Each page carries two counters from the page that first linked it (``FrontierItem``):
/// - its **shape chain**: 0, or one more than its parent's when both have the same
///   ``URLShape`` (a calendar's next month, `/page/7` from `/page/6`);
/// - its **growth**: 0, or one more than its parent's when a value of its URL extends the
///   parent's (``URLShape/grows(from:to:)``).
/// A page linked from several places keeps the lowest counters while it is queued, so a page
/// that a chain reaches first but an index lists too is never held back.
struct TrapGuard: Sendable {
    /// What the rules decided for one link.
    enum Verdict: Sendable, Equatable {
        /// Queue it with these counters.
        case admitted(chain: Int, growth: Int)
        /// Hold it back.
        case held(TrapRule, detail: String)
    }

    let rules: TrapRules
    /// How many query variants each path has, by a fingerprint of the URL's text before `?`
    /// (a slice of the text as the key kept the whole URL alive: memory per URL, issue #27).
    private var variantCounts: [Int: UInt32] = [:]
    /// The variants seen, each as one fingerprint of its path's and its own (up to the limit
    /// per path). A set per path cost a heap object for every path with a query: 90 bytes for
    /// each of the generated site's 12,000 `?ref=` links, 25 here.
    private var variantsSeen: Set<Int> = []
    /// The highest value each rule measured on a page it admitted: how close the site came
    /// to the limits (the report shows it, to tune them by).
    private(set) var peaks = TrapPeaks()

    init(rules: TrapRules) {
        self.rules = rules
    }

    /// The counters a link would get from `parent`, or the rule that holds it back; the
    /// query-variant rule counts the link's variant only when it is admitted.
    /// - Parameters:
    ///   - url: the link, normalised, without fragment.
    ///   - parent: the page that links it.
    ///   - parentShape: ``URLShape/hash(of:)`` of the parent's URL (computed once per page).
    mutating func admit(_ url: WebURL, parent: FrontierItem, parentShape: Int?) -> Verdict {
        if rules.maxPathSegments != nil || rules.maxSegmentRepeats != nil {
            let segments = URLShape.segments(of: url.path)
            if let limit = rules.maxPathSegments, segments.count > limit {
                return .held(.pathSegments, detail: "\(segments.count) path segments, more than \(limit)")
            }
            if let limit = rules.maxSegmentRepeats, segments.mostRepeated > limit {
                return .held(.repeatedSegment, detail: "path segments repeat \(segments.mostRepeated) times in a row, more than \(limit)")
            }
            peaks.pathSegments = max(peaks.pathSegments, segments.count)
            peaks.segmentRepeats = max(peaks.segmentRepeats, segments.mostRepeated)
        }
        var growth = 0
        if let limit = rules.maxGrowingSteps, URLShape.grows(from: parent.url, to: url) {
            growth = Int(parent.growth) + 1
            if growth > limit {
                return .held(.growingValue, detail: "a value of the URL grew \(growth) times in a row, more than \(limit)")
            }
        }
        var chain = 0
        if let limit = rules.maxShapeChain, let parentShape, URLShape.hash(of: url) == parentShape {
            chain = Int(parent.chain) + 1
            if chain > limit {
                return .held(.shapeChain, detail: "\(chain) pages of the same shape in a row, more than \(limit)")
            }
        }
        if let limit = rules.maxQueryVariants, let variant = URLShape.queryVariant(of: url) {
            let text = url.string
            let path = text[..<(text.firstIndex(of: "?") ?? text.endIndex)].hashValue
            var hasher = Hasher()
            hasher.combine(path)
            hasher.combine(variant)
            let seen = hasher.finalize()
            if !variantsSeen.contains(seen) {
                let count = Int(variantCounts[path] ?? 0)
                guard count < limit else {
                    return .held(.queryVariants, detail: "its path has \(limit) query strings already, the most allowed")
                }
                variantsSeen.insert(seen)
                variantCounts[path] = UInt32(clamping: count + 1)
                peaks.queryVariants = max(peaks.queryVariants, count + 1)
            }
        }
        peaks.growingSteps = max(peaks.growingSteps, growth)
        peaks.shapeChain = max(peaks.shapeChain, chain)
        return .admitted(chain: chain, growth: growth)
    }

    /// The counters a link would get from `parent`, without checking or recording anything:
    /// for a page that is queued already and may get lower ones.
    func counters(of url: WebURL, parent: FrontierItem, parentShape: Int?) -> (chain: Int, growth: Int) {
        let growth = rules.maxGrowingSteps != nil && URLShape.grows(from: parent.url, to: url) ? Int(parent.growth) + 1 : 0
        let chain = rules.maxShapeChain != nil && parentShape != nil && URLShape.hash(of: url) == parentShape
            ? Int(parent.chain) + 1 : 0
        return (chain, growth)
    }

    /// ``URLShape/hash(of:)`` of a page whose links are about to be offered, when the shape rule is on.
    func shape(of parent: FrontierItem) -> Int? {
        rules.maxShapeChain == nil ? nil : URLShape.hash(of: parent.url)
    }
}
