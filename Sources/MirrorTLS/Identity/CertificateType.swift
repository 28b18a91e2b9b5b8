/// The container format of a client identity file.
public enum CertificateType: String, Sendable, CaseIterable {
    /// PKCS#12 (`.p12`, `.pfx`): certificate, key and chain in one password-protected file.
    case p12 = "P12"
    /// PEM text files: certificate (plus chain) and key, possibly in one file.
    case pem = "PEM"

    /// Guesses the format from the content: PEM has a `-----BEGIN` line, DER PKCS#12 starts
    /// with an ASN.1 SEQUENCE byte (0x30). Returns nil for anything else.
    ///
    /// - Parameter bytes: the file's content.
    public static func detect(_ bytes: [UInt8]) -> CertificateType? {
        if TrustFile.isPEM(bytes) { return .pem }
        if bytes.first == 0x30 { return .p12 }
        return nil
    }
}
