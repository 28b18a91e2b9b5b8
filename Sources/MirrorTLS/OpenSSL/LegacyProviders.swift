import COpenSSL

/// Loads OpenSSL 3's `legacy` provider (RC2, 3DES, … used by old PKCS#12 files), once per process.
///
/// Loading `legacy` on its own switches the implicit `default` provider off, after which every
/// file fails with a misleading "mac verify failure". So both are loaded together.
enum LegacyProviders {
    /// Whether both providers are loaded. Evaluated once, thread-safely (a Swift `static let`).
    static let loaded: Bool = {
        let legacy = OSSL_PROVIDER_load(nil, "legacy")
        let standard = OSSL_PROVIDER_load(nil, "default")
        _ = OpenSSLErrorQueue.drain()
        return legacy != nil && standard != nil
    }()

    /// Loads the providers if that has not happened yet; returns whether they are available.
    static func ensureLoaded() -> Bool { loaded }
}
