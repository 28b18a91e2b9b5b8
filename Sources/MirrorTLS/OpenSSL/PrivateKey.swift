import COpenSSL

/// Owns one OpenSSL `EVP_PKEY *` and frees it in `deinit`.
///
/// Immutable after creation; OpenSSL only reads it when installing it into an `SSL_CTX`
/// (which takes its own reference), so it may be shared across threads.
final class PrivateKey: @unchecked Sendable {
    /// The `EVP_PKEY *`.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }
}
