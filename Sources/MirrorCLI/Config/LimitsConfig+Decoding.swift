import MirrorHTTP

extension LimitsConfig {
    /// The keys of a `limits` object.
    static let keys = [
        "maxPages", "maxBytes", "maxFileSize", "maxRedirects", "maxURLLength", "maxDecompressionRatio", "maxHTMLBytes",
        "perHostConnections", "connectTimeout", "idleTimeout", "totalTimeout", "retries", "runTime", "headerTimeout",
        "minRate", "publishPartial", "httpVersion",
    ]

    static let httpVersionExpected = "\"auto\", \"1.1\" or \"2\""

    /// Decodes a site's `limits`; absent fields keep their defaults.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let object = try node.object(keys: Self.keys)
        self.init()
        maxPages = try object.nullable("maxPages")?.int(in: 1...Int.max)
        maxBytes = try object.nullable("maxBytes")?.size(atLeast: 1)
        if let size = try object.optional("maxFileSize")?.size(atLeast: 1) { maxFileSize = size }
        if let count = try object.optional("maxRedirects")?.int(in: 0...100) { maxRedirects = count }
        if let length = try object.optional("maxURLLength")?.int(in: 256...(1 << 20)) { maxURLLength = length }
        if let ratio = try object.optional("maxDecompressionRatio")?.double(atLeast: 1) { maxDecompressionRatio = ratio }
        if let size = try object.optional("maxHTMLBytes")?.size(atLeast: 1) { maxHTMLBytes = size }
        if let count = try object.optional("perHostConnections")?.int(in: 1...64) { perHostConnections = count }
        if let seconds = try object.optional("connectTimeout")?.duration(positive: true) { connectTimeout = seconds }
        if let seconds = try object.optional("idleTimeout")?.duration(positive: true) { idleTimeout = seconds }
        if let seconds = try object.optional("totalTimeout")?.duration(positive: true) { totalTimeout = seconds }
        if let count = try object.optional("retries")?.int(in: 0...20) { retries = count }
        runTime = try object.nullable("runTime")?.duration(positive: true)
        if let seconds = try object.optional("headerTimeout")?.duration(positive: true) { headerTimeout = seconds }
        if let rate = try object.optional("minRate")?.size(atLeast: 0) { minRate = rate }
        if let publish = try object.optional("publishPartial")?.bool() { publishPartial = publish }
        if let node = object.optional("httpVersion") {
            guard let version = HTTPVersionPreference(rawValue: try node.string(Self.httpVersionExpected)) else {
                throw node.invalid(Self.httpVersionExpected)
            }
            httpVersion = version
        }
    }
}
