import MirrorCore

/// Why the server could not start.
public enum ServerError: DiagnosableError, Equatable {
    /// A non-loopback address without `allowRemote` and an access token.
    case remoteBindRefused(address: String, reason: String)
    /// The host is not a numeric IPv4/IPv6 address or `localhost`.
    case invalidAddress(address: String)
    /// A socket call failed (`bind` with `EADDRINUSE`, …).
    case socketFailed(operation: String, address: String, errno: Int32)
    /// The configuration names no site, or a site twice.
    case invalidSites(reason: String)
    /// `start()` was called twice.
    case alreadyStarted
    /// The TLS certificate chain file cannot be read or parsed.
    case certificateUnreadable(path: String, reason: String)
    /// The TLS private key file cannot be read or parsed.
    case privateKeyUnreadable(path: String, reason: String)
    /// The private key does not belong to the certificate.
    case keyMismatch(certificate: String, key: String)
    /// The client CA file cannot be read or parsed.
    case clientCAUnreadable(path: String, reason: String)
    /// Another OpenSSL setup call failed.
    case tlsSetupFailed(operation: String, reason: String)

    public var category: ErrorCategory {
        switch self {
        case .remoteBindRefused, .invalidAddress, .invalidSites, .keyMismatch: .usage
        case .socketFailed, .certificateUnreadable, .privateKeyUnreadable, .clientCAUnreadable: .io
        case .alreadyStarted, .tlsSetupFailed: .internal
        }
    }

    public var summary: String {
        switch self {
        case .remoteBindRefused(let address, let reason): "refusing to serve on \(address): \(reason)"
        case .invalidAddress(let address): "\(address) is not an IP address"
        case .socketFailed(let operation, let address, let code): "\(operation) on \(address) failed: \(String(cString: strerror(code)))"
        case .invalidSites(let reason): "invalid site list: \(reason)"
        case .alreadyStarted: "the server is already running"
        case .certificateUnreadable(let path, let reason): "cannot load the certificate chain \(path): \(reason)"
        case .privateKeyUnreadable(let path, let reason): "cannot load the private key \(path): \(reason)"
        case .keyMismatch(let certificate, let key): "the key \(key) does not match the certificate \(certificate)"
        case .clientCAUnreadable(let path, let reason): "cannot load the client CA \(path): \(reason)"
        case .tlsSetupFailed(let operation, let reason): "\(operation) failed: \(reason)"
        }
    }

    public var hint: String {
        switch self {
        case .remoteBindRefused: "serve on 127.0.0.1, or allow remote clients explicitly, with an access token"
        case .invalidAddress: "use a numeric address such as 127.0.0.1 or ::1"
        case .socketFailed(let operation, _, let code) where operation == "bind" && code == EADDRINUSE: "choose another port"
        case .socketFailed: ""
        case .invalidSites: "name each site once"
        case .alreadyStarted: ""
        case .certificateUnreadable, .privateKeyUnreadable, .clientCAUnreadable: "check the path, its permissions and that it is PEM"
        case .keyMismatch: "pass the key that was generated with this certificate"
        case .tlsSetupFailed: ""
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
