import Foundation
import MirrorCore
import MirrorTLS

/// Decides, for each host, which client identity (if any) and which trust evaluator a
/// connection uses.
///
/// The identity goes only to hosts inside ``identityScope`` — also after a redirect, because
/// every hop asks again. The trust evaluator comes from the host→policy table, which fails
/// closed for an unknown host when it was built that way.
public final class SecurityPolicy: Sendable {
    public let identity: ClientIdentity?
    public let identityScope: HostScope
    public let trust: ServerTrustManager
    private let cache = ProfileCache()

    private final class ProfileCache: @unchecked Sendable {
        let lock = NSLock()
        var profiles: [String: TLSProfile] = [:]
    }

    /// - Parameters:
    ///   - identity: the client certificate and key, or nil to send none.
    ///   - identityScope: the hosts that may receive the identity.
    ///   - trust: the host→trust-evaluator table.
    public init(identity: ClientIdentity?, identityScope: HostScope, trust: ServerTrustManager) {
        self.identity = identity
        self.identityScope = identityScope
        self.trust = trust
    }

    /// The profile for a connection to `host:port`: the same object for the same answer, so
    /// the HTTP engine keeps one pool per profile.
    ///
    /// - Throws: ``HTTPError/serverTrust(url:_:)`` with `noEvaluatorForHost` when the table has
    ///   no policy for the host.
    public func profile(host: String, port: Int, url: String) throws(HTTPError) -> TLSProfile {
        let sendIdentity = identity != nil && identityScope.contains(host: host, port: port)
        let key = "\(HostName.canonical(host) ?? host):\(port):\(sendIdentity)"
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let profile = cache.profiles[key] { return profile }
        let evaluator: any ServerTrustEvaluating
        do {
            evaluator = try trust.evaluator(forHost: host)  // the table normalises the name itself
        } catch {
            throw .serverTrust(url: url, error)
        }
        let profile = TLSProfile(identity: sendIdentity ? identity : nil, evaluator: evaluator)
        cache.profiles[key] = profile
        return profile
    }

    /// Whether the identity would be sent to `host:port`.
    public func sendsIdentity(host: String, port: Int) -> Bool {
        identity != nil && identityScope.contains(host: host, port: port)
    }
}
