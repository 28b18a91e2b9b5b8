import COpenSSL

/// Owns one OpenSSL `EVP_PKEY *` and frees it in `deinit`.
///
/// Immutable after creation; OpenSSL only reads it when installing it into an `SSL_CTX`
/// (which takes its own reference), so it may be shared across threads.
final class PrivateKey: @unchecked Sendable {
    /// The `EVP_PKEY *`.
    let pointer: OpaquePointer
    /// What must outlive the key: for a key on a PKCS#11 token, the loaded module
    /// (``PKCS11Context``). Released after `EVP_PKEY_free`, since `deinit` runs first.
    let owner: AnyObject?

    /// Takes ownership of `pointer` (one reference), keeping `owner` alive as long as the key.
    init(taking pointer: OpaquePointer, owner: AnyObject? = nil) {
        self.pointer = pointer
        self.owner = owner
    }

    deinit { EVP_PKEY_free(pointer) }
}
