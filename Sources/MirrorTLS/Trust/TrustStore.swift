import CMirrorShims
import COpenSSL

/// Owns an OpenSSL `X509_STORE` loaded with trust anchors and CRLs, and frees it in `deinit`.
///
/// Built once per evaluator (see ``ChainVerifier``) and then only read: OpenSSL locks the store
/// internally, so concurrent verifications may share it.
final class TrustStore: @unchecked Sendable {
    /// The `X509_STORE *`.
    let pointer: OpaquePointer

    /// Creates a store from anchors and CRL files.
    ///
    /// - Throws: ``TrustError/unreadableFile(path:reason:)`` for a file that cannot be read or
    ///   holds nothing usable; ``TrustError/openSSL(operation:detail:)`` when OpenSSL fails.
    init(anchors: TrustAnchors, crlFiles: [String]) throws(TrustError) {
        guard let store = X509_STORE_new() else {
            throw .openSSL(operation: "X509_STORE_new", detail: OpenSSLErrorQueue.drainedText())
        }
        pointer = store
        switch anchors {
        case .system:
            guard X509_STORE_set_default_paths(store) == 1 else {
                throw .openSSL(operation: "X509_STORE_set_default_paths", detail: OpenSSLErrorQueue.drainedText())
            }
        case let .systemAndFiles(paths):
            guard X509_STORE_set_default_paths(store) == 1 else {
                throw .openSSL(operation: "X509_STORE_set_default_paths", detail: OpenSSLErrorQueue.drainedText())
            }
            for path in paths {
                for certificate in try CertificateInfo.loadPEMFile(path) { try add(certificate) }
            }
        case let .files(paths):
            for path in paths {
                for certificate in try CertificateInfo.loadPEMFile(path) { try add(certificate) }
            }
        case let .certificates(certificates):
            for certificate in certificates { try add(certificate) }
        }
        for path in crlFiles { try addCRLs(from: path) }
        _ = OpenSSLErrorQueue.drain()
    }

    deinit { X509_STORE_free(pointer) }

    private func add(_ certificate: CertificateInfo) throws(TrustError) {
        let x509 = try certificate.makeX509()
        guard X509_STORE_add_cert(pointer, x509.pointer) == 1 else {
            throw .openSSL(operation: "X509_STORE_add_cert", detail: OpenSSLErrorQueue.drainedText())
        }
    }

    /// Adds every CRL of a PEM file (all `X509 CRL` blocks) or a DER file (one CRL).
    private func addCRLs(from path: String) throws(TrustError) {
        let bytes = try TrustFile.read(path)
        var crls: [OpaquePointer] = []
        if TrustFile.isPEM(bytes) {
            if let bio = MemoryBIO(bytes) {
                while let crl = PEM_read_bio_X509_CRL(bio.pointer, nil, nil, nil) { crls.append(crl) }
            }
        } else {
            let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_X509_CRL(nil, &cursor, buffer.count)
            }
            if let parsed { crls.append(parsed) }
        }
        _ = OpenSSLErrorQueue.drain()
        defer { crls.forEach { X509_CRL_free($0) } }
        guard !crls.isEmpty else { throw .unreadableFile(path: path, reason: "no PEM or DER CRL found") }
        for crl in crls where X509_STORE_add_crl(pointer, crl) != 1 {
            throw .openSSL(operation: "X509_STORE_add_crl", detail: OpenSSLErrorQueue.drainedText())
        }
    }
}
