import MirrorCrawler
extension MirrorConfig {
    /// The keys of the top-level object.
    static let keys = ["output", "jobs", "sites", "serve"]

    /// Decodes and checks the top-level object (warnings are computed afterwards).
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys, expected: "an object with \"sites\"")
        output = try object.optional("output")?.path("a folder path") ?? node.source.resolve("output")
        jobs = try object.optional("jobs")?.int(in: SiteJob.jobsRange) ?? SiteJob.defaultJobs
        sites = []
        var seen: [String: String] = [:]
        for siteNode in try object.required("sites").array(of: "site objects", nonEmpty: true) {
            let site = try SiteConfig(decoding: siteNode)
            let namePath = siteNode.path.key("name")
            if let earlier = seen[site.name.lowercased()] {
                throw .invalid(file: node.source.file, fieldPath: namePath.description,
                               expected: "a name no other site uses (names are compared ignoring case)",
                               found: "\(ConfigJSON.quoted(site.name)), already used by \(earlier)")
            }
            seen[site.name.lowercased()] = namePath.description
            sites.append(site)
        }
        serve = try object.optional("serve").map { node throws(ConfigError) in try ServeConfig(decoding: node) } ?? ServeConfig()
        warnings = []
    }
}
