import CMirrorShims
import COpenSSL

/// Turns a PKCS#8 `PrivateKeyInfo` into an `EVP_PKEY`, as `EVP_PKCS82PKEY` does, without OpenSSL
/// 3.0's decoder framework for the two usual kinds of client key (issue #27).
///
/// `EVP_PKCS82PKEY` builds a decoder context for every key: 0.7–1.6 ms on this project's VM,
/// on the identity's thread, which a run's first connection waits for. An RSA key
/// (`rsaEncryption`) and an EC key on a named curve (`id-ecPublicKey` with a curve's OID) are
/// read here by their own DER decoders (`d2i_RSAPrivateKey`, `d2i_ECPrivateKey`, as OpenSSL's
/// `rsa_priv_decode` and `eckey_priv_decode` do), 0.03 ms, and handed to OpenSSL as the key of
/// an `EVP_PKEY`; OpenSSL exports it to its provider the first time it signs with it. Every
/// other key (Ed25519, RSA-PSS, explicit curve parameters), and any key these decoders refuse
/// or do not read to its last byte, goes to `EVP_PKCS82PKEY` with its errors.
enum PrivateKeyDecoder {
    /// The key of `info` (a `PKCS8_PRIV_KEY_INFO *`), owned by the caller; nil when OpenSSL
    /// cannot read it (its error queue says why).
    static func key(of info: OpaquePointer) -> OpaquePointer? {
        ERR_set_mark()
        if let key = direct(info) {
            ERR_clear_last_mark()
            return key
        }
        ERR_pop_to_mark()
        return EVP_PKCS82PKEY(info)
    }

    /// The key read by the RSA or EC decoder, or nil for any other kind or any failure.
    static func direct(_ info: OpaquePointer) -> OpaquePointer? {
        var algorithmObject: OpaquePointer?
        var der: UnsafePointer<UInt8>?
        var length: Int32 = 0
        var algorithm: UnsafePointer<X509_ALGOR>?
        guard PKCS8_pkey_get0(&algorithmObject, &der, &length, &algorithm, info) == 1,
              let der, length > 0, let algorithm
        else { return nil }
        var parameterType: Int32 = 0
        var parameter: UnsafeRawPointer?
        X509_ALGOR_get0(nil, &parameterType, &parameter, algorithm)
        let end = der + Int(length)
        var cursor: UnsafePointer<UInt8>? = der
        switch OBJ_obj2nid(algorithmObject) {
        case NID_rsaEncryption:
            guard let rsa = CMirrorShims_d2i_RSAPrivateKey(&cursor, Int(length)) else { return nil }
            guard cursor == end else {
                CMirrorShims_RSA_free(rsa)
                return nil
            }
            return assign(UnsafeMutableRawPointer(rsa), type: EVP_PKEY_RSA) { CMirrorShims_RSA_free(rsa) }
        case NID_X9_62_id_ecPublicKey:
            // The curve is named by the algorithm's parameters (RFC 5480); explicit parameters
            // are left to OpenSSL's decoder.
            guard parameterType == V_ASN1_OBJECT, let parameter,
                  case let curve = OBJ_obj2nid(OpaquePointer(parameter)), curve != NID_undef,
                  let group = CMirrorShims_EC_KEY_new_by_curve_name(curve)
            else { return nil }
            var ec: OpaquePointer? = group
            guard CMirrorShims_d2i_ECPrivateKey(&ec, &cursor, Int(length)) != nil, let ec else {
                CMirrorShims_EC_KEY_free(ec ?? group)
                return nil
            }
            guard cursor == end else {
                CMirrorShims_EC_KEY_free(ec)
                return nil
            }
            return assign(UnsafeMutableRawPointer(ec), type: EVP_PKEY_EC) { CMirrorShims_EC_KEY_free(ec) }
        default:
            return nil
        }
    }

    /// A new `EVP_PKEY` holding `key` of `type`; `free` releases `key` when that fails.
    private static func assign(_ key: UnsafeMutableRawPointer, type: Int32, free: () -> Void) -> OpaquePointer? {
        guard let pkey = EVP_PKEY_new() else {
            free()
            return nil
        }
        guard CMirrorShims_EVP_PKEY_assign(pkey, type, key) == 1 else {
            free()
            EVP_PKEY_free(pkey)
            return nil
        }
        return pkey
    }
}
