/// All of several policies must accept; the first refusal is reported as is, so its message
/// names the member that failed.
public struct CompositeTrustEvaluator: ServerTrustEvaluating {
    /// The members, evaluated in order.
    public let evaluators: [any ServerTrustEvaluating]

    /// `composite(member, member, …)`.
    public var name: String { "composite(" + evaluators.map(\.name).joined(separator: ", ") + ")" }

    /// Creates the policy.
    ///
    /// - Parameter evaluators: the members; an empty list accepts nothing.
    public init(_ evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    /// Runs every member in order and rethrows the first refusal.
    ///
    /// - Throws: the failing member's ``TrustError`` (whose summary names that member), or
    ///   ``TrustError/noCertificates(policy:host:)`` when there are no members (fail closed).
    public func prepare() {
        for evaluator in evaluators { evaluator.prepare() }
    }

    public func evaluate(_ trust: ServerTrust) throws(TrustError) {
        guard !evaluators.isEmpty else { throw .noCertificates(policy: name, host: trust.host) }
        for evaluator in evaluators { try evaluator.evaluate(trust) }
    }
}
