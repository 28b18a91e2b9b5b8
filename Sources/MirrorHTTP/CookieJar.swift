import Foundation

/// Cookies kept for the length of a run and sent back (RFC 6265 §5: domain and path matching,
/// host-only cookies, `Secure`, expiry through `Expires` and `Max-Age`).
///
/// Shared by every connection of a site, whatever its TLS profile (the cookie store is not a
/// libcurl share, whose TLS session cache must stay per profile). A Netscape cookie file — what
/// curl's `-c` and browsers' exporters write — can seed it.
public final class CookieJar: @unchecked Sendable {
    public struct Cookie: Sendable, Equatable {
        public var name: String
        public var value: String
        /// Lower-case domain without a leading dot.
        public var domain: String
        /// Sent only to `domain` itself, not to subdomains.
        public var hostOnly: Bool
        public var path: String
        public var secure: Bool
        public var expires: Date?
    }

    private let lock = NSLock()
    private var cookies: [Cookie] = []
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Whether the jar holds no cookie at all (expired ones included): a cheap test that lets
    /// a request skip cookie matching.
    public var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cookies.isEmpty
    }

    /// Every cookie currently held (expired ones removed).
    public var all: [Cookie] {
        lock.lock()
        defer { lock.unlock() }
        purge()
        return cookies
    }

    /// Stores the `Set-Cookie` header values of a response from `url`.
    public func receive(setCookie values: [String], from url: URL) {
        guard let host = url.host?.lowercased() else { return }
        receive(setCookie: values, host: host, path: url.path)
    }

    /// Stores `Set-Cookie` values of a response from `host` (lower-case) for a request path.
    func receive(setCookie values: [String], host: String, path: String) {
        guard !values.isEmpty else { return }
        let url = (host: host, path: path)
        lock.lock()
        defer { lock.unlock() }
        for value in values {
            guard let cookie = Self.parse(value, host: url.host, requestPath: url.path, now: now()) else { continue }
            cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
            if let expires = cookie.expires, expires <= now() { continue }  // a deletion
            cookies.append(cookie)
        }
    }

    /// The `Cookie` header value for a request to `url`, or nil when no cookie applies.
    public func header(for url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        return header(host: host, path: url.path, secure: url.scheme?.lowercased() == "https")
    }

    /// The `Cookie` header value for a request to `host` (lower-case) and `path` over a secure
    /// (`https`) or plain connection, or nil when no cookie applies.
    func header(host: String, path requestPath: String, secure: Bool) -> String? {
        let path = requestPath.isEmpty ? "/" : requestPath
        lock.lock()
        defer { lock.unlock() }
        guard !cookies.isEmpty else { return nil }
        purge()
        let matching = cookies.filter { cookie in
            (cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain))
                && Self.pathMatches(path, cookie.path) && (!cookie.secure || secure)
        }.sorted { $0.path.count > $1.path.count }
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Loads a Netscape cookie file: one cookie a line, seven tab-separated fields
    /// (domain, include-subdomains, path, secure, expiry epoch, name, value); `#HttpOnly_`
    /// prefixes are understood, other `#` lines are comments.
    ///
    /// - Returns: how many cookies were loaded.
    @discardableResult
    public func load(netscapeFile text: String) -> Int {
        var loaded = 0
        lock.lock()
        defer { lock.unlock() }
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = String(rawLine)
            if line.hasPrefix("#HttpOnly_") { line.removeFirst("#HttpOnly_".count) } else if line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7 else { continue }
            var domain = fields[0].lowercased()
            let includeSubdomains = fields[1].uppercased() == "TRUE"
            if domain.hasPrefix(".") { domain.removeFirst() }
            let epoch = TimeInterval(fields[4]) ?? 0
            let cookie = Cookie(
                name: fields[5], value: fields[6...].joined(separator: "\t"), domain: domain,
                hostOnly: !includeSubdomains, path: fields[2].isEmpty ? "/" : fields[2],
                secure: fields[3].uppercased() == "TRUE", expires: epoch > 0 ? Date(timeIntervalSince1970: epoch) : nil)
            cookies.append(cookie)
            loaded += 1
        }
        return loaded
    }

    // MARK: RFC 6265 rules

    static func parse(_ header: String, host: String, requestPath: String, now: Date) -> Cookie? {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, let eq = first.firstIndex(of: "=") else { return nil }
        let name = String(first[..<eq]).trimmingCharacters(in: .whitespaces)
        let value = String(first[first.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, hostOnly: true,
                            path: defaultPath(requestPath), secure: false, expires: nil)
        var maxAge: TimeInterval?
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            let key = pieces[0].lowercased()
            let argument = pieces.count > 1 ? pieces[1] : ""
            switch key {
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                // A server may only set cookies for itself or a parent domain (§5.3 step 6).
                guard domainMatches(host, domain) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                if argument.hasPrefix("/") { cookie.path = argument }
            case "secure":
                cookie.secure = true
            case "max-age":
                if let seconds = TimeInterval(argument) { maxAge = seconds }
            case "expires":
                if maxAge == nil, let date = HTTPDate.parse(argument) { cookie.expires = date }
            default:
                break
            }
        }
        if let maxAge { cookie.expires = now.addingTimeInterval(maxAge) }
        return cookie
    }

    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        guard host.hasSuffix("." + domain) else { return false }
        // Never for IP addresses.
        return !host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
    }

    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex else { return "/" }
        return String(requestPath[..<slash])
    }

    private func purge() {
        let current = now()
        cookies.removeAll { $0.expires.map { $0 <= current } ?? false }
    }
}
