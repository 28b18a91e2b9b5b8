extension WebURL {
    /// Why a string is not an acceptable `http`/`https` URL.
    public enum ParseError: DiagnosableError, Equatable {
        /// The input is longer than the configured limit (UTF-8 bytes).
        case tooLong(length: Int, limit: Int)
        /// A control character (NUL, other C0 or DEL) other than tab/newline was found at
        /// `offset` (UTF-8 bytes, after trimming).
        case controlCharacter(offset: Int)
        /// The input has no scheme, so it is not an absolute URL.
        case missingScheme
        /// The scheme is not `http` or `https` (for example `mailto`, `javascript`, `data`).
        case unsupportedScheme(String)
        /// The URL carries `user:password@`, which the mirror refuses so credentials never
        /// end up in files, logs or manifests.
        case userInfoNotSupported(host: String)
        /// The host is empty (`http:///x`, `http://:80/`).
        case emptyHost
        /// The host contains characters no host may contain, or is malformed (bad IPv6).
        case invalidHost(String)
        /// The port is not a number from 0 to 65535.
        case invalidPort(String)

        public var category: ErrorCategory { .usage }

        public var summary: String {
            switch self {
            case .tooLong(let length, let limit):
                return "URL is \(length) bytes long, more than the limit of \(limit)"
            case .controlCharacter(let offset):
                return "URL contains a control character at byte \(offset)"
            case .missingScheme:
                return "URL has no scheme; an absolute http:// or https:// URL is needed"
            case .unsupportedScheme(let scheme):
                return "URL scheme '\(scheme)' is not supported; only http and https are"
            case .userInfoNotSupported(let host):
                return "URL for host '\(host)' contains user name or password, which is refused"
            case .emptyHost:
                return "URL has an empty host"
            case .invalidHost(let host):
                return "URL host '\(host)' is not a valid host name"
            case .invalidPort(let port):
                return "URL port '\(port)' is not a number from 0 to 65535"
            }
        }

        public var hint: String {
            switch self {
            case .tooLong: return "raise the URL length limit if such URLs are expected"
            case .missingScheme: return "write the URL as https://host/path"
            case .userInfoNotSupported: return "remove 'user:password@' from the URL"
            default: return ""
            }
        }
    }
}
