/// Where a hardware-backed client identity came from: which module, token and key, and where
/// its certificate was read. Shown by `inspect`; never holds the PIN.
public struct TokenKeyInfo: Sendable, Equatable, Encodable {
    /// The PKCS#11 module file that was loaded.
    public var module: String
    /// The token's label, manufacturer, model and serial number, as the token reports them.
    public var tokenLabel: String
    public var manufacturer: String
    public var model: String
    public var serial: String
    /// The slot the token sits in.
    public var slotID: UInt
    /// The key's label and identifier (`%01`), as stored on the token.
    public var keyLabel: String?
    public var keyID: String?
    /// Where the certificate came from: `"token"` or the file's path.
    public var certificateSource: String

    /// One line: `token 'Mirror' (SoftHSM project SoftHSM v2, serial 1a2b, slot 3), key 'client-key' (id %01)`.
    public var summary: String {
        var key = "key"
        if let keyLabel { key += " '\(keyLabel)'" }
        if let keyID { key += " (id \(keyID))" }
        return "token '\(tokenLabel)' (\(manufacturer) \(model), serial \(serial), slot \(slotID)), \(key), certificate from \(certificateSource)"
    }
}
