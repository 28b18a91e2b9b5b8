import CMirrorShims
import COpenSSL

/// Owns one OpenSSL `X509 *` and frees it in `deinit`.
///
/// Immutable after creation; OpenSSL only reads it, so it may be shared across threads.
final class X509Certificate: @unchecked Sendable {
    /// The `X509 *`. Borrowed by callers for the lifetime of this object.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Shares `pointer` by taking one more reference (`X509_up_ref`).
    init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.pointer = pointer
    }

    /// Parses DER bytes (`d2i_X509`). Returns nil when they are not one certificate.
    convenience init?(der: [UInt8]) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else { return nil }
        self.init(taking: parsed)
    }

    deinit { X509_free(pointer) }

    /// The DER encoding (`i2d_X509`), or nil when OpenSSL cannot encode it.
    var der: [UInt8]? { X509Certificate.derBytes(of: pointer) }

    /// The DER encoding of a borrowed `X509 *`.
    static func derBytes(of certificate: OpaquePointer) -> [UInt8]? {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        return written == length ? bytes : nil
    }

    /// Reads every PEM certificate block of `bytes`, in order (`PEM_read_bio_X509`).
    static func readAllPEM(_ bytes: [UInt8]) -> [X509Certificate] {
        guard let bio = MemoryBIO(bytes) else { return [] }
        var certificates: [X509Certificate] = []
        while let next = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
            certificates.append(X509Certificate(taking: next))
        }
        _ = OpenSSLErrorQueue.drain()  // the last read always ends with "no start line"
        return certificates
    }
}

/// Owns a `STACK_OF(X509)` built from certificates, for the `untrusted` arguments of OpenSSL.
final class X509Stack {
    /// The `STACK_OF(X509) *`, or nil when allocation failed.
    let pointer: OpaquePointer?

    /// Builds a stack holding one extra reference to each certificate.
    init(_ certificates: [X509Certificate]) {
        let stack = CMirrorShims_sk_X509_new_null()
        if let stack {
            for certificate in certificates {
                X509_up_ref(certificate.pointer)
                if CMirrorShims_sk_X509_push(stack, certificate.pointer) <= 0 { X509_free(certificate.pointer) }
            }
        }
        pointer = stack
    }

    deinit {
        if let pointer { CMirrorShims_sk_X509_pop_free(pointer) }
    }

    /// Borrowed certificates of a stack OpenSSL owns, each retained into its own owner.
    static func certificates(in stack: OpaquePointer?) -> [X509Certificate] {
        guard let stack else { return [] }
        let count = CMirrorShims_sk_X509_num(stack)
        guard count > 0 else { return [] }
        return (0..<count).compactMap { index in
            CMirrorShims_sk_X509_value(stack, index).map { X509Certificate(retaining: $0) }
        }
    }
}
