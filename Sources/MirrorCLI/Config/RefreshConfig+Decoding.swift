extension RefreshConfig {
    /// The keys of a `refresh` object.
    static let keys = ["every", "jitter", "keep", "expiryWarningDays"]

    /// Decodes a site's `refresh`; absent fields keep their defaults.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        every = try object.optional("every")?.duration(positive: true)
        if let seconds = try object.optional("jitter")?.duration() { jitter = seconds }
        if let count = try object.optional("keep")?.int(in: 1...1000) { keep = count }
        if let days = try object.optional("expiryWarningDays")?.int(in: 0...3650) { expiryWarningDays = days }
    }
}
