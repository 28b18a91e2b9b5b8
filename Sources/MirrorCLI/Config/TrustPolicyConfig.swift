/// One server-trust policy as the config describes it, before any file is loaded.
///
/// Each case mirrors an evaluator of MirrorTLS. An empty `anchors` list means the system's CA
/// store; otherwise the listed PEM files are the only anchors. All file paths are absolute and
/// were readable when the config was loaded.
public indirect enum TrustPolicyConfig: Sendable, Equatable {
    /// Verify the chain against the anchors and (with `verifyHost`) the host name.
    case `default`(anchors: [String], verifyHost: Bool)
    /// Like `default`, and also check every certificate against the CRLs (at least one).
    case revocation(crls: [String], anchors: [String], verifyHost: Bool)
    /// Accept only a server presenting one of these certificates; `requireChain` also demands
    /// a verified chain.
    case pinnedCertificates(certificates: [String], requireChain: Bool, anchors: [String], verifyHost: Bool)
    /// Accept only a server whose key (or a verified chain key) matches a `sha256//BASE64` pin.
    case publicKeys(pins: [String], requireChain: Bool, anchors: [String], verifyHost: Bool)
    /// Every member must accept the server.
    case composite([TrustPolicyConfig])
    /// NO SERVER VERIFICATION AT ALL: anyone on the network can impersonate the server and
    /// receive the client certificate. Loading a config with it produces a warning.
    case disabled

    /// The entry of an `anchors` list that adds the system store to the listed files
    /// (`"system": true`). The other entries are absolute paths, which this never is.
    public static let systemStoreAnchor = "system:"

    /// The secure default: the system CA store with host-name checking.
    public static let systemDefault = TrustPolicyConfig.default(anchors: [], verifyHost: true)

    /// The `"type"` value that selects this case in the config.
    public var typeName: String {
        switch self {
        case .default: return "default"
        case .revocation: return "revocation"
        case .pinnedCertificates: return "pinnedCertificates"
        case .publicKeys: return "publicKeys"
        case .composite: return "composite"
        case .disabled: return "disabled"
        }
    }
}
