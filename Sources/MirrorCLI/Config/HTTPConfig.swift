/// Request details for one site.
public struct HTTPConfig: Sendable, Equatable {
    /// A header's value: plain text, or a reference for credentials.
    public enum HeaderValue: Sendable, Equatable {
        /// The value as written.
        case literal(String)
        /// A secret read when the request is made (`{"env": "VAR"}` or `{"file": "path"}`).
        case reference(PasswordReference)
    }

    /// One extra request header.
    public struct Header: Sendable, Equatable {
        /// The field name as written.
        public var name: String
        /// The value or where to read it.
        public var value: HeaderValue

        /// Creates a header.
        public init(name: String, value: HeaderValue) {
            self.name = name
            self.value = value
        }
    }

    /// Header names whose values are credentials: these must be references, never literals.
    public static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// Extra request headers, in config order.
    public var headers: [Header] = []
    /// The User-Agent; `nil` means `mtls-mirror/VERSION`.
    public var userAgent: String?
    /// A Netscape cookie file to seed the cookie jar with (absolute); `nil` for none.
    public var cookies: String?
    /// Follow redirects from https to plain http. Default `false`.
    public var allowDowngrade = false

    /// The defaults: no extra headers, no cookies, no downgrades.
    public init() {}
}
