import Foundation

/// A ``PathRule`` ready to match: prefixes as text, regexes compiled once.
///
/// `NSRegularExpression` is immutable after creation and documented as safe to use from
/// several threads, so sharing it in a `Sendable` value is sound.
struct CompiledPathRule: Sendable {
    /// The rule as configured, for reasons in reports.
    let rule: PathRule
    private let regex: NSRegularExpression?

    /// Compiles a rule.
    /// - Throws: ``ScopeError/invalidRegex(pattern:reason:)`` when a regex does not compile,
    ///   ``ScopeError/emptyPathRule(rule:)`` for an empty prefix or pattern.
    init(_ rule: PathRule) throws(ScopeError) {
        self.rule = rule
        switch rule {
        case .prefix(let prefix):
            guard !prefix.isEmpty else { throw .emptyPathRule(rule: prefix) }
            regex = nil
        case .regex(let pattern):
            guard !pattern.isEmpty else { throw .emptyPathRule(rule: PathRule.regexMarker) }
            do {
                regex = try NSRegularExpression(pattern: pattern, options: [])
            } catch {
                throw .invalidRegex(pattern: pattern, reason: Self.reason(for: error))
            }
        }
    }

    /// Whether the rule matches a request target (`/path?query`).
    func matches(_ target: String) -> Bool {
        switch rule {
        case .prefix(let prefix):
            return target.hasPrefix(prefix)
        case .regex:
            guard let regex else { return false }
            let range = NSRange(target.startIndex..., in: target)
            return regex.firstMatch(in: target, options: [], range: range) != nil
        }
    }

    /// The rule as a user wrote it, for messages.
    var text: String {
        switch rule {
        case .prefix(let prefix): return prefix
        case .regex(let pattern): return PathRule.regexMarker + pattern
        }
    }

    private static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo["NSInvalidValue"] as? String { return "invalid pattern near '\(detail)'" }
        return "ICU could not compile it (\(nsError.domain) code \(nsError.code))"
    }
}
