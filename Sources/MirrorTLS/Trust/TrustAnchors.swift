/// The certificates a chain must lead to.
public enum TrustAnchors: Sendable, Equatable {
    /// The operating system's CA store (`X509_STORE_set_default_paths`).
    case system
    /// CA certificates from PEM (or DER) files, e.g. `--cacert FILE`.
    case files([String])
    /// The system store AND the CA certificates of these files (`--cacert FILE --ca-native`,
    /// `"system": true`): a chain passes when it leads to either, as a union of the anchors.
    case systemAndFiles([String])
    /// CA certificates already parsed.
    case certificates([CertificateInfo])
}
