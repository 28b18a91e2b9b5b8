import MirrorTLS

/// The client certificate a site presents, and the hosts allowed to receive it.
///
/// Files are only named here; the identity loader opens them and reports its own errors.
public struct IdentityConfig: Sendable, Equatable {
    /// The certificate file (PKCS#12 or PEM), absolute; or a `pkcs11:` URI (RFC 7512) for a
    /// key and certificate on a token.
    public var certificate: String
    /// The forced format; `nil` means detect it from the content.
    public var type: CertificateType?
    /// The private key file (PEM) when it is not inside ``certificate``, absolute; or a
    /// `pkcs11:` URI for a key on a token whose certificate is the ``certificate`` file.
    public var key: String?
    /// The PKCS#11 module for a URI that names none, absolute.
    public var module: String?
    /// Where the password comes from; `nil` when none is configured.
    public var password: PasswordReference?
    /// Extra hosts that may receive the identity (`host`, `host:port`, `*.domain`), beyond the
    /// start URLs' own origins.
    public var hosts: [String]

    /// Creates an identity configuration.
    public init(certificate: String, type: CertificateType? = nil, key: String? = nil,
                password: PasswordReference? = nil, hosts: [String] = [], module: String? = nil) {
        self.certificate = certificate
        self.module = module
        self.type = type
        self.key = key
        self.password = password
        self.hosts = hosts
    }
}
