import Foundation
import MirrorCore

/// Whether and how requests go through a proxy.
///
/// The default is ``direct``, and direct means direct: libcurl's own reading of `http_proxy`,
/// `https_proxy`, `all_proxy` and `no_proxy` is switched off (`CURLOPT_PROXY` ""), so an
/// unexpected variable never reroutes intranet traffic. A proxy is used only when named
/// (``proxy(_:)``, from `--proxy` or the config), or when the environment's is asked for
/// (``environment(_:)``, read here once so that the report can name it).
///
/// Every proxied request goes through a CONNECT tunnel (`CURLOPT_HTTPPROXYTUNNEL`), for
/// `http://` URLs too: the proxy sees host and port, never a request, and TLS runs end to end,
/// so the client certificate reaches the origin only.
public enum ProxySettings: Sendable, Equatable {
    /// No proxy at all, whatever the environment says.
    case direct
    /// This proxy for every request (except the ``ProxyEndpoint/noProxy`` hosts).
    case proxy(ProxyEndpoint)
    /// The environment's proxies, by URL scheme (`https_proxy` for https, `http_proxy` for
    /// http, `all_proxy` for both), as read when the settings were made.
    case environment(https: ProxyEndpoint?, http: ProxyEndpoint?)

    /// The proxy for a request, or nil for a direct connection.
    ///
    /// - Parameter isHTTPS: whether the request URL is https.
    public func endpoint(isHTTPS: Bool) -> ProxyEndpoint? {
        switch self {
        case .direct: nil
        case .proxy(let endpoint): endpoint
        case .environment(let https, let http): isHTTPS ? https : http
        }
    }

    /// Reads the environment's proxies the way curl does: `https_proxy` (or `HTTPS_PROXY`)
    /// for https URLs, only lower-case `http_proxy` for http URLs (an upper-case `HTTP_PROXY`
    /// can be set by a web request's `Proxy:` header in CGI programs), `all_proxy` for both,
    /// and `no_proxy` (or `NO_PROXY`) for the exceptions.
    ///
    /// - Parameter environment: the variables (the process's by default).
    /// - Throws: ``ProxyError/invalidURL(_:source:reason:)`` for a variable that is not a proxy URL.
    public static func fromEnvironment(_ environment: [String: String] = Environment.values(variableNames)) throws(ProxyError) -> ProxySettings {
        func value(_ names: [String]) -> (String, String)? {
            for name in names { if let text = environment[name], !text.isEmpty { return (name, text) } }
            return nil
        }
        let noProxy = value(["no_proxy", "NO_PROXY"]).map { ProxyEndpoint.splitHosts($0.1) } ?? []
        func endpoint(_ names: [String]) throws(ProxyError) -> ProxyEndpoint? {
            guard let (name, text) = value(names) else { return nil }
            var parsed = try ProxyEndpoint(url: text, source: "environment variable \(name)", allowCredentials: true)
            parsed.noProxy = noProxy
            return parsed
        }
        return .environment(https: try endpoint(["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]),
                            http: try endpoint(["http_proxy", "all_proxy", "ALL_PROXY"]))
    }

    /// Every variable ``fromEnvironment(_:)`` and ``environmentVariablesSet(_:)`` read.
    public static let variableNames = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY",
                                       "no_proxy", "NO_PROXY"]

    /// The environment's proxy variables that are set, by name (for "ignored" notes).
    public static func environmentVariablesSet(_ environment: [String: String] = Environment.values(variableNames)) -> [String] {
        ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"].filter { environment[$0]?.isEmpty == false }
    }

    /// One line for the run's report and log: which proxy was used, or that none was.
    public var summary: String {
        switch self {
        case .direct:
            let ignored = Self.environmentVariablesSet()
            return ignored.isEmpty ? "direct (no proxy)"
                : "direct (no proxy; \(ignored.joined(separator: ", ")) set in the environment and ignored: --proxy-env uses it)"
        case .proxy(let endpoint):
            return endpoint.summary
        case .environment(let https, let http):
            if https == nil && http == nil { return "direct (--proxy-env, but no proxy variable is set)" }
            var parts: [String] = []
            if let https { parts.append("https: \(https.summary)") }
            if let http, http != https { parts.append("http: \(http.summary)") }
            return parts.joined(separator: "; ")
        }
    }
}

/// One proxy: its URL (never with credentials in it), the hosts reached without it, and the
/// Basic credentials, already resolved from their reference.
public struct ProxyEndpoint: Sendable, Equatable {
    /// `http://host:port` or `https://host:port`.
    public var url: String
    /// Whether the proxy itself is reached over TLS (an HTTPS proxy).
    public var isHTTPS: Bool
    /// Hosts reached directly (`CURLOPT_NOPROXY`: `host`, `.domain` or `domain` for a domain and
    /// its subdomains, `*` for all).
    public var noProxy: [String]
    /// Basic authentication for the proxy (`Proxy-Authorization`), sent only to the proxy.
    public var username: String?
    public var password: Secret?
    /// CA file that verifies an HTTPS proxy (`CURLOPT_PROXY_CAINFO`); the system store when nil.
    public var caFile: String?
    /// Where the setting came from: `--proxy`, `config.json`, `environment variable https_proxy`.
    public var source: String

    /// Parses a proxy URL.
    ///
    /// - Parameters:
    ///   - url: `http://host:port` or `https://host:port`; a bare `host:port` means http.
    ///   - source: where it came from, for messages and the report.
    ///   - allowCredentials: whether `user:password@` may appear (environment variables);
    ///     elsewhere it is refused, because the password would be on the command line or in a file.
    /// - Throws: ``ProxyError/invalidURL(_:source:reason:)``, ``ProxyError/credentialsInURL(source:)``.
    public init(url text: String, source: String, allowCredentials: Bool = false) throws(ProxyError) {
        var candidate = text.trimmingCharacters(in: .whitespaces)
        if !candidate.contains("://") { candidate = "http://" + candidate }
        guard let components = URLComponents(string: candidate), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else {
            throw .invalidURL(Self.redacted(text), source: source, reason: "not a URL like http://proxy.example:3128")
        }
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL(Self.redacted(text), source: source, reason: "only http:// and https:// proxies are supported, not \(scheme)://")
        }
        if components.user != nil || components.password != nil {
            guard allowCredentials else { throw .credentialsInURL(source: source) }
            username = components.user?.removingPercentEncoding
            password = components.password.map { Secret($0.removingPercentEncoding ?? $0) }
        }
        let port = components.port ?? (scheme == "https" ? 443 : 1080)
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        url = "\(scheme)://\(shownHost):\(port)"
        isHTTPS = scheme == "https"
        noProxy = []
        caFile = nil
        self.source = source
    }

    /// `http://proxy:3128 (--proxy, user alice, not for: localhost)`.
    public var summary: String {
        var notes = [source]
        if let username { notes.append("user \(username)") }
        if !noProxy.isEmpty { notes.append("not for: \(noProxy.joined(separator: ", "))") }
        return "\(url) (\(notes.joined(separator: ", ")))"
    }

    /// Splits a `no_proxy`/`--noproxy` list at commas and spaces.
    public static func splitHosts(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    /// The URL with any `user:password@` removed, for messages.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        return String(text[..<start]) + "…@" + String(text[text.index(after: at)...])
    }
}

/// A proxy setting that cannot be used.
public enum ProxyError: DiagnosableError, Equatable {
    /// The text is not a usable proxy URL.
    case invalidURL(String, source: String, reason: String)
    /// The proxy URL carries a user and password, where it would be visible.
    case credentialsInURL(source: String)

    public var category: ErrorCategory { .usage }

    public var summary: String {
        switch self {
        case .invalidURL(let url, let source, let reason): "the proxy \(url) (\(source)) is not usable: \(reason)"
        case .credentialsInURL(let source): "the proxy URL of \(source) carries a user name and password"
        }
    }

    public var hint: String {
        switch self {
        case .invalidURL: "write it as http://proxy.example:3128 or https://proxy.example:3129"
        case .credentialsInURL: "give the user and the password as settings of their own (the password from an environment variable or a file)"
        }
    }
}
