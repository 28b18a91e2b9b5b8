import MirrorCore

extension SiteConfig {
    /// The keys of a site object.
    static let keys = ["name", "start", "identity", "trust", "scope", "limits", "traps", "http", "refresh", "serve", "proxy", "crawl", "archive", "render"]

    /// Decodes and checks one entry of `sites`.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys, expected: "a site object with \"name\" and \"start\"")
        name = try Self.decodeName(object.required("name"))
        start = []
        for urlNode in try object.required("start").array(of: "absolute http(s) URLs", nonEmpty: true) {
            let text = try urlNode.string("an absolute http(s) URL")
            do {
                start.append(try WebURL.parse(text))
            } catch {
                throw urlNode.invalid("an absolute http(s) URL", found: "\(ConfigJSON.quoted(text)) (\(error.summary))")
            }
        }
        identity = try object.optional("identity").map { node throws(ConfigError) in try IdentityConfig(decoding: node) }
        trust = try object.optional("trust").map { node throws(ConfigError) in try TrustConfig(decoding: node) } ?? TrustConfig()
        scope = try object.optional("scope").map { node throws(ConfigError) in try ScopeConfig(decoding: node) } ?? ScopeConfig()
        limits = try object.optional("limits").map { node throws(ConfigError) in try LimitsConfig(decoding: node) } ?? LimitsConfig()
        traps = try object.optional("traps").map { node throws(ConfigError) in try TrapsConfig(decoding: node) } ?? TrapsConfig()
        http = try object.optional("http").map { node throws(ConfigError) in try HTTPConfig(decoding: node) } ?? HTTPConfig()
        refresh = try object.optional("refresh").map { node throws(ConfigError) in try RefreshConfig(decoding: node) } ?? RefreshConfig()
        serve = try object.optional("serve").map { node throws(ConfigError) in try SiteServeConfig(decoding: node) } ?? SiteServeConfig()
        crawl = try object.optional("crawl").map { node throws(ConfigError) in try CrawlConfig(decoding: node) } ?? CrawlConfig()
        proxy = try object.optional("proxy").map { node throws(ConfigError) in try ProxyConfig(decoding: node) }
        archive = try object.optional("archive").map { node throws(ConfigError) in try ArchiveConfig(decoding: node) }
        render = try object.optional("render").flatMap { node throws(ConfigError) in try RenderConfig.decode(node) }
        try checkTrustCoverage(object)
    }

    /// A site name: it becomes a folder, so only safe characters.
    private static func decodeName(_ node: ConfigNode) throws(ConfigError) -> String {
        let expected = "a name of 1 to 64 letters, digits, \".\", \"_\" or \"-\" (not \".\" or \"..\")"
        let name = try node.string(expected)
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-"
        }
        guard allowed, name.unicodeScalars.count <= 64, name != ".", name != ".." else { throw node.invalid(expected) }
        return name
    }

    /// With a trust table that fails closed, every start host must have a policy.
    private func checkTrustCoverage(_ object: ConfigObject) throws(ConfigError) {
        guard trust.failsClosed else { return }
        let trustPath = object.node.path.key("trust")
        for (index, url) in start.enumerated() where trust.policy(forHost: url.host) == nil {
            throw ConfigError.invalid(
                file: object.node.source.file, fieldPath: object.node.path.key("start").index(index).description,
                expected: "a host with a trust policy in \(trustPath.key("hosts")) (there is no trust.default, so other hosts fail closed)",
                found: "host \(ConfigJSON.quoted(url.host)) with no trust policy")
        }
    }
}
