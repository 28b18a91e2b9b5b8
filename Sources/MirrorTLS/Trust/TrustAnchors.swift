/// The certificates a chain must lead to.
public enum TrustAnchors: Sendable, Equatable {
    /// The operating system's CA store (`X509_STORE_set_default_paths`).
    case system
    /// CA certificates from PEM (or DER) files, e.g. `--cacert FILE`.
    case files([String])
    /// CA certificates already parsed.
    case certificates([CertificateInfo])
}
