import Foundation
import MirrorCore

extension ScopeConfig {
    /// The keys of a `scope` object.
    static let keys = ["include", "exclude", "noParent", "depth", "requisiteHosts", "robots"]

    /// Decodes a site's `scope`; regular expressions are compiled once here to catch mistakes.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        include = try Self.patterns(object.optional("include"))
        exclude = try Self.patterns(object.optional("exclude"))
        noParent = try object.optional("noParent")?.bool() ?? false
        if let member = object.optional("depth") { depth = member.isNull ? nil : try member.int(in: 0...Int.max) }
        robots = try object.optional("robots")?.bool() ?? true
        if let hostsNode = object.optional("requisiteHosts") {
            for hostNode in try hostsNode.array(of: "host patterns") {
                let expected = "a host name or *.domain, optionally with :port"
                guard let host = try? HostPattern(parsing: try hostNode.string(expected)) else { throw hostNode.invalid(expected) }
                requisiteHosts.append(host.description)
            }
        }
    }

    static func patterns(_ node: ConfigNode?) throws(ConfigError) -> [Pattern] {
        guard let node else { return [] }
        let expected = "a path prefix starting with \"/\" or \"regex:<pattern>\""
        var patterns: [Pattern] = []
        for item in try node.array(of: "path prefixes or \"regex:<pattern>\"") {
            let text = try item.string(expected)
            if text.hasPrefix("regex:") {
                let regex = String(text.dropFirst("regex:".count))
                guard !regex.isEmpty, (try? NSRegularExpression(pattern: regex)) != nil else {
                    throw item.invalid("a valid regular expression after \"regex:\"")
                }
                patterns.append(.regex(regex))
            } else {
                guard text.hasPrefix("/") else { throw item.invalid(expected) }
                patterns.append(.prefix(text))
            }
        }
        return patterns
    }
}
