import CMirrorShims
import COpenSSL
import MirrorCore

/// Opens PKCS#12 files (`d2i_PKCS12_bio`, `PKCS12_parse`).
enum PKCS12Reader {
    /// Parses a PKCS#12 file into an identity.
    ///
    /// Order of checks: not PKCS#12 ⇒ unrecognized; parse fails with "unsupported" ⇒ load the
    /// legacy provider and retry once, then legacy unavailable; parse fails with "mac verify
    /// failure" ⇒ password required (none given) or wrong.
    ///
    /// `PKCS12_parse` checks the MAC itself before it decrypts anything (with no password it
    /// tries none and the empty one, as `openssl pkcs12` does). It is not checked a second
    /// time beforehand: each check is a key derivation (2,048 rounds of PBKDF2 by OpenSSL 3's
    /// defaults, about 1 ms), and the file is opened before every run.
    static func read(_ bytes: [UInt8], file: String, password: Secret?) throws(IdentityError) -> ClientIdentity {
        guard let bio = MemoryBIO(bytes), let p12 = d2i_PKCS12_bio(bio.pointer, nil) else {
            _ = OpenSSLErrorQueue.drain()
            throw .unrecognizedFormat(file: file)
        }
        defer { PKCS12_free(p12) }
        let pass: String? = password?.reveal()
        switch parse(p12, pass: pass) {
        case let .success(parts):
            return try identity(from: parts, file: file)
        case let .failure(entries) where entries.contains(where: isUnsupported):
            guard LegacyProviders.ensureLoaded() else { throw .legacyAlgorithmUnavailable(file: file) }
            switch parse(p12, pass: pass) {
            case let .success(parts): return try identity(from: parts, file: file)
            case let .failure(retry) where retry.contains(where: isUnsupported): throw .legacyAlgorithmUnavailable(file: file)
            case let .failure(retry): throw classify(retry, file: file, password: password)
            }
        case let .failure(entries):
            throw classify(entries, file: file, password: password)
        }
    }

    private struct Parts {
        var key: PrivateKey?
        var certificate: X509Certificate?
        var chain: [X509Certificate]
    }

    private enum Outcome {
        case success(Parts)
        case failure([OpenSSLErrorQueue.Entry])
    }

    private static func parse(_ p12: OpaquePointer, pass: String?) -> Outcome {
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var stack: OpaquePointer?
        let status: Int32
        if let pass {
            status = PKCS12_parse(p12, pass, &key, &certificate, &stack)
        } else {
            status = PKCS12_parse(p12, nil, &key, &certificate, &stack)
        }
        let entries = OpenSSLErrorQueue.drain()
        let parts = Parts(
            key: key.map { PrivateKey(taking: $0) },
            certificate: certificate.map { X509Certificate(taking: $0) },
            chain: X509Stack.certificates(in: stack))
        if let stack { CMirrorShims_sk_X509_pop_free(stack) }
        return status == 1 ? .success(parts) : .failure(entries)
    }

    private static func identity(from parts: Parts, file: String) throws(IdentityError) -> ClientIdentity {
        guard let key = parts.key else { throw .noPrivateKey(file: file) }
        guard let certificate = parts.certificate else {
            throw .openSSL(operation: "PKCS12_parse", detail: "\(file) holds a key but no matching certificate")
        }
        try ClientIdentity.checkKey(key, matches: certificate, certificateFile: file, keyFile: file)
        return try ClientIdentity(key: key, certificate: certificate, chain: parts.chain, file: file)
    }

    private static func classify(_ entries: [OpenSSLErrorQueue.Entry], file: String, password: Secret?) -> IdentityError {
        if entries.contains(where: { $0.reason == PKCS12_R_MAC_VERIFY_FAILURE }) {
            return password == nil ? .passwordRequired(file: file) : .wrongPassword(file: file)
        }
        return .openSSL(operation: "PKCS12_parse", detail: OpenSSLErrorQueue.describe(entries))
    }

    private static func isUnsupported(_ entry: OpenSSLErrorQueue.Entry) -> Bool {
        entry.reason == ERR_R_UNSUPPORTED || entry.text.hasSuffix(":unsupported")
    }
}
