import CMirrorShims
import COpenSSL
import MirrorCore

/// Opens PKCS#12 files (`d2i_PKCS12_bio`, then the MAC and the bags as `PKCS12_parse` reads them).
enum PKCS12Reader {
    /// Parses a PKCS#12 file into an identity.
    ///
    /// Order of checks: not PKCS#12 ⇒ unrecognized; the MAC does not match (or, without a MAC,
    /// decryption fails) ⇒ password required (none given) or wrong; reading fails with
    /// "unsupported" ⇒ load the legacy provider and retry once, then legacy unavailable.
    ///
    /// The MAC is checked once, before anything is decrypted (with no password, no password and
    /// the empty one are tried, as `openssl pkcs12` does): each check is a key derivation
    /// (2,048 rounds by OpenSSL 3's defaults), and the file is opened before every run.
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
        case .macVerifyFailure:
            throw passwordError(file: file, password: password)
        case let .failure(entries) where entries.contains(where: isUnsupported):
            guard LegacyProviders.ensureLoaded() else { throw .legacyAlgorithmUnavailable(file: file) }
            switch parse(p12, pass: pass) {
            case let .success(parts): return try identity(from: parts, file: file)
            case .macVerifyFailure: throw passwordError(file: file, password: password)
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
        /// The MAC does not match: the password is wrong (or one is needed).
        case macVerifyFailure
        case failure([OpenSSLErrorQueue.Entry])
    }

    /// Checks the MAC and reads the bags as `PKCS12_parse` does, with two differences. The key
    /// is read by ``PrivateKeyDecoder``, not by OpenSSL 3.0's decoder framework (0.7–1.6 ms a
    /// key, before a run's first connection; issue #27). A file without a MAC opens with its
    /// password (OpenSSL 3.0's `PKCS12_parse` calls that a MAC failure). As there: the MAC is
    /// checked before anything is decrypted (with no password, no password and the empty one
    /// are both tried), the first key bag gives the key, the first certificate the key matches
    /// is the leaf and the others are the chain, in the file's order; other bags are skipped.
    private static func parse(_ p12: OpaquePointer, pass: String?) -> Outcome {
        var pass = pass
        if PKCS12_mac_present(p12) == 1 {
            if pass == nil || pass?.isEmpty == true {
                if PKCS12_verify_mac(p12, nil, 0) == 1 {
                    pass = nil
                } else if PKCS12_verify_mac(p12, "", 0) == 1 {
                    pass = ""
                } else {
                    _ = OpenSSLErrorQueue.drain()
                    return .macVerifyFailure
                }
            } else if PKCS12_verify_mac(p12, pass, -1) != 1 {
                _ = OpenSSLErrorQueue.drain()
                return .macVerifyFailure
            }
        }
        var key: PrivateKey?
        var certificates: [X509Certificate] = []
        let read: Bool = if let pass {
            pass.withCString { readContents(p12, pass: $0, key: &key, certificates: &certificates) }
        } else {
            readContents(p12, pass: nil, key: &key, certificates: &certificates)
        }
        guard read else { return .failure(OpenSSLErrorQueue.drain()) }
        var parts = Parts(key: key, certificate: nil, chain: [])
        for certificate in certificates {
            if let key, parts.certificate == nil {
                ERR_set_mark()
                let matches = X509_check_private_key(certificate.pointer, key.pointer) == 1
                ERR_pop_to_mark()
                if matches {
                    parts.certificate = certificate
                    continue
                }
            }
            parts.chain.append(certificate)
        }
        return .success(parts)
    }

    /// Reads every content info of the file: plain data and password-encrypted data (others,
    /// such as public-key-enveloped data, are skipped as by OpenSSL). False on an error.
    private static func readContents(_ p12: OpaquePointer, pass: UnsafePointer<CChar>?, key: inout PrivateKey?,
                                     certificates: inout [X509Certificate]) -> Bool {
        guard let safes = PKCS12_unpack_authsafes(p12) else { return false }
        defer { CMirrorShims_sk_PKCS7_pop_free(safes) }
        for index in 0..<CMirrorShims_sk_PKCS7_num(safes) {
            guard let content = CMirrorShims_sk_PKCS7_value(safes, index) else { return false }
            let bags: OpaquePointer?
            switch OBJ_obj2nid(content.pointee.type) {
            case NID_pkcs7_data: bags = PKCS12_unpack_p7data(content)
            case NID_pkcs7_encrypted: bags = PKCS12_unpack_p7encdata(content, pass, -1)
            default: continue
            }
            guard let bags else { return false }
            defer { CMirrorShims_sk_PKCS12_SAFEBAG_pop_free(bags) }
            guard readBags(bags, pass: pass, key: &key, certificates: &certificates) else { return false }
        }
        return true
    }

    /// Reads a list of safe bags (a safe-contents bag's own list too). False on an error.
    private static func readBags(_ bags: OpaquePointer, pass: UnsafePointer<CChar>?, key: inout PrivateKey?,
                                 certificates: inout [X509Certificate]) -> Bool {
        for index in 0..<CMirrorShims_sk_PKCS12_SAFEBAG_num(bags) {
            guard let bag = CMirrorShims_sk_PKCS12_SAFEBAG_value(bags, index) else { return false }
            switch PKCS12_SAFEBAG_get_nid(bag) {
            case NID_keyBag:
                guard key == nil else { continue }
                guard let info = PKCS12_SAFEBAG_get0_p8inf(bag), let read = PrivateKeyDecoder.key(of: info) else { return false }
                key = PrivateKey(taking: read)
            case NID_pkcs8ShroudedKeyBag:
                guard key == nil else { continue }
                guard let info = PKCS12_decrypt_skey(bag, pass, -1) else { return false }
                defer { PKCS8_PRIV_KEY_INFO_free(info) }
                guard let read = PrivateKeyDecoder.key(of: info) else { return false }
                key = PrivateKey(taking: read)
            case NID_certBag:
                guard PKCS12_SAFEBAG_get_bag_nid(bag) == NID_x509Certificate else { continue }
                guard let certificate = PKCS12_SAFEBAG_get1_cert(bag) else { return false }
                certificates.append(X509Certificate(taking: certificate))
            case NID_safeContentsBag:
                guard let inner = PKCS12_SAFEBAG_get0_safes(bag),
                      readBags(inner, pass: pass, key: &key, certificates: &certificates)
                else { return false }
            default:
                continue
            }
        }
        return true
    }

    private static func identity(from parts: Parts, file: String) throws(IdentityError) -> ClientIdentity {
        guard let key = parts.key else { throw .noPrivateKey(file: file) }
        guard let certificate = parts.certificate else {
            throw .openSSL(operation: "PKCS12_parse", detail: "\(file) holds a key but no matching certificate")
        }
        // The leaf is the certificate the key matched (``parse(_:pass:)``): no second check.
        return try ClientIdentity(key: key, certificate: certificate, chain: parts.chain, file: file)
    }

    private static func classify(_ entries: [OpenSSLErrorQueue.Entry], file: String, password: Secret?) -> IdentityError {
        // A file without a MAC (`openssl pkcs12 -nomac`) cannot tell a wrong password before
        // decrypting: its padding check usually fails.
        if entries.contains(where: isBadDecrypt) { return passwordError(file: file, password: password) }
        return .openSSL(operation: "PKCS12_parse", detail: OpenSSLErrorQueue.describe(entries))
    }

    /// A password that does not open the file: none was given, or the given one is wrong.
    private static func passwordError(file: String, password: Secret?) -> IdentityError {
        password == nil ? .passwordRequired(file: file) : .wrongPassword(file: file)
    }

    private static func isBadDecrypt(_ entry: OpenSSLErrorQueue.Entry) -> Bool {
        ERR_GET_LIB(entry.code) == ERR_LIB_EVP && entry.reason == EVP_R_BAD_DECRYPT
    }

    private static func isUnsupported(_ entry: OpenSSLErrorQueue.Entry) -> Bool {
        entry.reason == ERR_R_UNSUPPORTED || entry.text.hasSuffix(":unsupported")
    }
}
