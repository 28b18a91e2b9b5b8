import MirrorCrawler

/// A site's crawler-trap defences (`traps` in config.json): each limit a number, or `null` to
/// switch that rule off; an absent key keeps the default (``MirrorCrawler/TrapRules/defaults``).
public struct TrapsConfig: Sendable, Equatable {
    public var rules: TrapRules = .defaults

    /// The defaults: every rule on.
    public init() {}
}

extension TrapsConfig {
    /// The keys of a `traps` object.
    static let keys = ["maxPathSegments", "maxSegmentRepeats", "maxQueryVariants", "maxGrowingSteps", "maxShapeChain"]

    /// Decodes a site's `traps`.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        func limit(_ key: String, _ current: Int?) throws(ConfigError) -> Int? {
            guard let member = object.optional(key) else { return current }
            return member.isNull ? nil : try member.int(in: 1...100_000)
        }
        rules.maxPathSegments = try limit("maxPathSegments", rules.maxPathSegments)
        rules.maxSegmentRepeats = try limit("maxSegmentRepeats", rules.maxSegmentRepeats)
        rules.maxQueryVariants = try limit("maxQueryVariants", rules.maxQueryVariants)
        rules.maxGrowingSteps = try limit("maxGrowingSteps", rules.maxGrowingSteps)
        rules.maxShapeChain = try limit("maxShapeChain", rules.maxShapeChain)
    }
}
