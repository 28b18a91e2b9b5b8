import MirrorHTTP
import MirrorTLS

/// A site's proxy, as config.json names it (`sites[].proxy`).
///
/// `"http://proxy.corp:3128"`, or an object with `url`, `noProxy`, `user`, `password` (a
/// reference) and `cacert`, or `{"fromEnvironment": true}` to use `https_proxy` and its kin.
/// Without it, requests go direct and the environment's proxy variables are ignored.
public struct ProxyConfig: Sendable, Equatable {
    /// Where the proxy comes from.
    public enum Mode: Sendable, Equatable {
        /// This proxy URL.
        case url(String)
        /// The environment's variables.
        case environment
    }

    public var mode: Mode
    /// Hosts reached directly.
    public var noProxy: [String]
    /// Basic authentication user, and where its password comes from.
    public var user: String?
    public var password: PasswordReference?
    /// CA file that verifies an HTTPS proxy, absolute.
    public var caFile: String?

    public init(mode: Mode, noProxy: [String] = [], user: String? = nil, password: PasswordReference? = nil, caFile: String? = nil) {
        self.mode = mode
        self.noProxy = noProxy
        self.user = user
        self.password = password
        self.caFile = caFile
    }

    /// The HTTP layer's settings, with the password resolved now.
    ///
    /// - Throws: ``ProxyError`` for an unusable URL, ``IdentityError`` when the password's
    ///   reference cannot be read.
    public func settings() throws -> ProxySettings {
        switch mode {
        case .environment:
            return try ProxySettings.fromEnvironment()
        case .url(let text):
            var endpoint = try ProxyEndpoint(url: text, source: "config.json")
            endpoint.noProxy = noProxy
            endpoint.caFile = caFile
            if let user {
                endpoint.username = user
                endpoint.password = try password?.source.resolve(forFile: "the proxy \(endpoint.url)")
            }
            return .proxy(endpoint)
        }
    }
}

extension ProxyConfig {
    static let keys = ["url", "fromEnvironment", "noProxy", "user", "password", "cacert"]

    /// Decodes `sites[].proxy`.
    init(decoding node: ConfigNode) throws(ConfigError) {
        let expected = "a proxy URL, {\"url\": …} or {\"fromEnvironment\": true}"
        if case .string = node.value {
            self.init(mode: .url(try Self.checkedURL(node)))
            return
        }
        let object = try node.object(keys: Self.keys, expected: expected)
        if let environment = object.optional("fromEnvironment") {
            guard try environment.bool() else { throw environment.invalid("true (or leave the key out)") }
            guard !object.has("url"), !object.has("user"), !object.has("noProxy") else {
                throw node.invalid("either \"url\" or \"fromEnvironment\"", found: "both")
            }
            self.init(mode: .environment)
            return
        }
        self.init(mode: .url(try Self.checkedURL(object.required("url"))))
        if let list = object.optional("noProxy") {
            for host in try list.array(of: "host names") { noProxy.append(try host.string("a host name or .domain")) }
        }
        user = try object.optional("user")?.string("a user name")
        password = try object.optional("password").map { node throws(ConfigError) in
            try PasswordReference(decoding: node, allowPrompt: false)
        }
        if user != nil && password == nil { throw node.invalid("a \"password\" reference beside \"user\"", found: "\"user\" alone") }
        caFile = try object.optional("cacert")?.readableFile()
    }

    private static func checkedURL(_ node: ConfigNode) throws(ConfigError) -> String {
        let text = try node.string("a proxy URL")
        do {
            _ = try ProxyEndpoint(url: text, source: "config.json")
        } catch {
            throw node.invalid("a proxy URL like http://proxy.example:3128 without credentials (\(error.summary))", found: "an unusable URL")
        }
        return text
    }
}
