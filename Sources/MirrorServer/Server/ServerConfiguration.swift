import MirrorCore

/// Everything ``MirrorServer`` needs to know, fixed at start.
public struct ServerConfiguration: Sendable {
    /// Which sites are served and where they appear.
    public enum SiteLayout: Sendable, Equatable {
        /// One site (`--site NAME`): `/` is the site's snapshot root.
        case single(ServedSite)
        /// Several sites: `/` is an index of them and each lives under `/NAME/`.
        case several([ServedSite])
    }

    /// The sites and their layout.
    public var layout: SiteLayout
    /// The address to bind; loopback (`127.0.0.1`) by default. Anything else needs
    /// ``allowRemote`` and an ``accessToken``.
    public var host: String = "127.0.0.1"
    /// The port; 0 picks a free one (``MirrorServer/start()`` returns it).
    public var port: UInt16 = 0
    /// Permits binding a non-loopback address. DANGEROUS: the mirror becomes reachable from the
    /// network; an ``accessToken`` is then required as well.
    public var allowRemote = false
    /// When set, every request must present it (`Authorization: Bearer …`, the
    /// `mtls_mirror_token` cookie, or `?token=…` once, which sets the cookie).
    public var accessToken: Secret?
    /// Serve over TLS (optionally requiring client certificates) instead of plain HTTP.
    public var tls: ServerTLSConfiguration?
    /// Request size limits.
    public var parserLimits = HTTPParserLimits()
    /// Seconds a client has to send a complete request head (slowloris guard).
    public var headerTimeout: Double = 10
    /// Seconds an idle keep-alive connection is kept.
    public var keepAliveTimeout: Double = 30
    /// Seconds without write progress before a stalled reader is dropped.
    public var writeTimeout: Double = 30
    /// Seconds ``MirrorServer/stop()`` lets in-flight responses finish.
    public var shutdownGracePeriod: Double = 5
    /// Most open connections; further ones get a `503` and are closed.
    public var maxConnections = 512
    /// Whether live fetch is on (mentioned on the 404 page).
    public var liveEnabled = false
    /// Called for files not in the mirror; `nil` answers 404.
    public var missHandler: (any MissHandler)?
    /// Asked first about every request to a site (render mode's replay of recorded answers);
    /// `nil`: files only, and every method but GET and HEAD is answered 405.
    public var requestInterceptor: (any RequestInterceptor)?
    /// Receives one entry per request (Common Log Format via ``AccessLogEntry/commonLogFormat``).
    public var accessLog: (@Sendable (AccessLogEntry) -> Void)?

    /// Creates a configuration with defaults for everything but the sites.
    /// - Parameter layout: the sites to serve.
    public init(layout: SiteLayout) {
        self.layout = layout
    }

    /// The sites, in order.
    public var sites: [ServedSite] {
        switch layout {
        case .single(let site): [site]
        case .several(let sites): sites
        }
    }
}

/// The certificate and key the server presents, and optionally the CA its clients must use.
public struct ServerTLSConfiguration: Sendable, Equatable {
    /// PEM file: the server certificate followed by its intermediates.
    public var certificateChainFile: String
    /// PEM file: the private key (unencrypted).
    public var privateKeyFile: String
    /// PEM file of CA certificates; when set, clients MUST present a certificate that
    /// verifies against it (`SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT`).
    public var clientCAFile: String?

    /// Creates a TLS configuration.
    /// - Parameters:
    ///   - certificateChainFile: the certificate chain PEM.
    ///   - privateKeyFile: the key PEM.
    ///   - clientCAFile: the client CA PEM, to require client certificates.
    public init(certificateChainFile: String, privateKeyFile: String, clientCAFile: String? = nil) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
        self.clientCAFile = clientCAFile
    }
}
