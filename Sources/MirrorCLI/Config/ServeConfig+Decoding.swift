extension ServeConfig {
    /// The keys of the top-level `serve` object.
    static let keys = ["bind", "port", "allowRemote", "tokenFile", "accessLog"]

    /// Decodes the top-level `serve`. A non-loopback `bind` needs `"allowRemote": true`.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        if let bindNode = object.optional("bind") { bind = try bindNode.string("an IP address or \"localhost\"") }
        if let number = try object.optional("port")?.int(in: 1...65535) { port = number }
        allowRemote = try object.optional("allowRemote")?.bool() ?? false
        tokenFile = try object.nullable("tokenFile")?.path("a token file path or null")
        accessLog = try object.nullable("accessLog")?.path("an access log file path or null")
        if !bindsLoopback && !allowRemote, let bindNode = object.optional("bind") {
            throw bindNode.invalid("a loopback address (\"127.0.0.1\", \"::1\" or \"localhost\") unless \"allowRemote\": true")
        }
    }
}

extension SiteServeConfig {
    /// The keys of a site's `serve` object.
    static let keys = ["live", "maxAge"]

    /// Decodes a site's `serve`.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        live = try object.optional("live")?.bool() ?? false
        maxAge = try object.nullable("maxAge")?.duration()
    }
}
