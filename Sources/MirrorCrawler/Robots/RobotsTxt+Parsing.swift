extension RobotsTxt {
    /// Parses the bytes of a `robots.txt` file.
    ///
    /// Accepts LF, CR LF and CR line ends and a UTF-8 byte order mark. Comments (`#` to the end
    /// of the line), lines without a colon, unknown keys and rules before the first
    /// `User-Agent` line are ignored. Common misspellings (`useragent`, `dissallow`) are read
    /// as the intended key. An empty `Disallow:` allows everything for its group. Only the
    /// first ``maximumSize`` bytes count, cut at the last line end within them.
    /// - Parameter bytes: the response body.
    public static func parse(_ bytes: [UInt8]) -> RobotsTxt {
        var input = bytes[...]
        if input.count > maximumSize {
            input = input.prefix(maximumSize)
            if let lastBreak = input.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                input = input[..<lastBreak]
            }
        }
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }

        var groups: [Group] = []
        var sitemaps: [String] = []
        var current: Group?
        var inAgentList = false
        for line in input.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            let content = line.prefix { $0 != UInt8(ascii: "#") }
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let key = String(decoding: trim(content[..<colon]), as: UTF8.self).lowercased()
            let value = trim(content[(colon + 1)...])
            switch Key(key) {
            case .userAgent:
                let token = productToken(String(decoding: value, as: UTF8.self))
                if !inAgentList, let finished = current {
                    groups.append(finished)
                    current = nil
                }
                if current == nil { current = Group(agents: [], rules: [], crawlDelay: nil) }
                if !token.isEmpty { current?.agents.append(token) }
                inAgentList = true
            case .allow, .disallow:
                inAgentList = false
                guard current != nil, !value.isEmpty else { continue }
                let pattern = RobotsPattern(Array(value))
                current?.rules.append(Rule(allow: Key(key) == .allow, pattern: pattern))
            case .crawlDelay:
                inAgentList = false
                guard current != nil, current?.crawlDelay == nil,
                      let delay = Double(String(decoding: value, as: UTF8.self)), delay.isFinite, delay >= 0
                else { continue }
                current?.crawlDelay = delay
            case .sitemap:
                if !value.isEmpty { sitemaps.append(String(decoding: value, as: UTF8.self)) }
            case .unknown:
                continue
            }
        }
        if let current { groups.append(current) }
        return RobotsTxt(groups: groups, sitemaps: sitemaps)
    }

    /// The keys the parser acts on.
    private enum Key: Equatable {
        case userAgent, allow, disallow, crawlDelay, sitemap, unknown

        init(_ text: String) {
            switch text {
            case "user-agent", "useragent", "user agent": self = .userAgent
            case "allow": self = .allow
            case "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw": self = .disallow
            case "crawl-delay", "crawldelay", "crawl delay": self = .crawlDelay
            case "sitemap", "site-map": self = .sitemap
            default: self = .unknown
            }
        }
    }

    /// Drops leading and trailing spaces and tabs.
    private static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}
