import COpenSSL
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// PBES2 (RFC 8018, section 6.2) for OpenSSL's password-based ciphers, with ``PBKDF2`` deriving
/// the key in the usual case: PBKDF2 with HMAC-SHA-256, as OpenSSL 3, Windows and Java write
/// PKCS#12 files and encrypted keys (issue #27: a PKCS#12 file takes two derivations before a
/// run's first connection).
///
/// ``install()`` puts it into OpenSSL's table of password-based algorithms
/// (`EVP_PBE_alg_add_type`), which `EVP_PBE_CipherInit` searches before its built-in one, once
/// per process; the tool's own password-based calls (``ClientIdentity/load(certificate:key:type:password:now:)``,
/// `PKCS12Writer`) install it first, since OpenSSL does not lock that table against a reader.
/// From then on every PBES2 encryption or decryption of the process comes here:
/// the bags of a PKCS#12 file, an encrypted PEM key, a PKCS#12 file `init` writes. It reads
/// the parameters as OpenSSL's `PKCS5_v2_PBE_keyivgen` does (the cipher and its IV from the
/// encryption scheme, the salt, rounds and key length from the PBKDF2 parameters) and sets the
/// same key. Anything else goes to that OpenSSL function untouched, with OpenSSL's own errors:
/// another PRF (HMAC-SHA-1, the standard's default, or SHA-512), another derivation (scrypt),
/// a salt that is not an OCTET STRING, a key length the cipher does not have, a cipher the
/// default library context cannot fetch, or parameters it cannot read.
enum PBES2KeyGenerator {
    /// Whether the generator is in OpenSSL's table (a Swift `static let`: added once, thread-safely).
    static let installed: Bool = {
        let added = EVP_PBE_alg_add_type(EVP_PBE_TYPE_OUTER, NID_pbes2, -1, -1, generate) == 1
        _ = OpenSSLErrorQueue.drain()
        return added
    }()

    /// Adds the generator to OpenSSL's table unless it is there; returns whether it is.
    @discardableResult
    static func install() -> Bool { installed }

    /// How many keys ``PBKDF2`` derived here on the calling thread (OpenSSL calls the generator
    /// on the thread that decrypts), for the tests to tell the two paths apart.
    static var derivationsOnThisThread: Int { Int(bitPattern: pthread_getspecific(counterKey)) }
    /// The count, kept in a thread-specific slot as a pointer's bits: Foundation's thread
    /// dictionary would cast its values through the Swift runtime's conformance scan, about
    /// 2.5 ms of a small run, on the identity's thread on the way to the first request.
    private static let counterKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The `EVP_PBE_KEYGEN` OpenSSL calls with the PBES2 parameters of an AlgorithmIdentifier.
    private static let generate: @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<ASN1_TYPE>?, OpaquePointer?, OpaquePointer?, Int32
    ) -> Int32 = { context, password, length, parameters, cipher, digest, direction in
        ERR_set_mark()
        if let context, let parameters, length >= 0, setKey(context, password, Int(length), parameters, direction) {
            ERR_clear_last_mark()
            return 1
        }
        // What OpenSSL reports is then its own, not a trace of the attempt here.
        ERR_pop_to_mark()
        return PKCS5_v2_PBE_keyivgen(context, password, length, parameters, cipher, digest, direction)
    }

    /// Sets `context`'s cipher, IV and key from PBES2 `parameters`, when they name PBKDF2 with
    /// HMAC-SHA-256; false (nothing to keep) otherwise.
    private static func setKey(_ context: OpaquePointer, _ password: UnsafePointer<CChar>?, _ length: Int,
                               _ parameters: UnsafeMutablePointer<ASN1_TYPE>, _ direction: Int32) -> Bool {
        guard let scheme = unpack(PBE2PARAM_it(), parameters, as: PBE2PARAM.self) else { return false }
        defer { PBE2PARAM_free(scheme) }
        guard let function = scheme.pointee.keyfunc, OBJ_obj2nid(function.pointee.algorithm) == NID_id_pbkdf2,
              let functionParameters = function.pointee.parameter,
              let derivation = unpack(PBKDF2PARAM_it(), functionParameters, as: PBKDF2PARAM.self)
        else { return false }
        defer { PBKDF2PARAM_free(derivation) }
        guard let prf = derivation.pointee.prf, OBJ_obj2nid(prf.pointee.algorithm) == NID_hmacWithSHA256,
              let salt = derivation.pointee.salt, salt.pointee.type == V_ASN1_OCTET_STRING,
              let saltString = salt.pointee.value.octet_string,
              let roundsInteger = derivation.pointee.iter
        else { return false }
        let rounds = ASN1_INTEGER_get(roundsInteger)
        guard rounds >= 1, rounds <= Int(Int32.max), let encryption = scheme.pointee.encryption,
              let cipher = fetchCipher(encryption.pointee.algorithm)
        else { return false }
        defer { EVP_CIPHER_free(cipher) }
        guard EVP_CipherInit_ex(context, cipher, nil, nil, nil, direction) == 1,
              EVP_CIPHER_asn1_to_param(context, encryption.pointee.parameter) > 0
        else { return false }
        let keyLength = Int(EVP_CIPHER_CTX_get_key_length(context))
        guard (1...Int(EVP_MAX_KEY_LENGTH)).contains(keyLength) else { return false }
        if let declared = derivation.pointee.keylength, ASN1_INTEGER_get(declared) != keyLength { return false }

        let saltBytes = UnsafeRawBufferPointer(
            start: ASN1_STRING_get0_data(saltString), count: Int(ASN1_STRING_length(saltString)))
        return withUnsafeTemporaryAllocation(byteCount: keyLength, alignment: 16) { key in
            defer { OPENSSL_cleanse(key.baseAddress, key.count) }
            PBKDF2.hmacSHA256(password: UnsafeRawBufferPointer(start: password, count: password == nil ? 0 : length),
                              salt: saltBytes, rounds: rounds, into: key)
            pthread_setspecific(counterKey, UnsafeRawPointer(bitPattern: derivationsOnThisThread + 1))
            return EVP_CipherInit_ex(context, nil, nil, key.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, direction) == 1
        }
    }

    /// The cipher an encryption scheme names, fetched from the default library context as
    /// OpenSSL's own PBES2 does (by the object's name); nil when it has none.
    private static func fetchCipher(_ algorithm: OpaquePointer?) -> OpaquePointer? {
        var name = [CChar](repeating: 0, count: 80)
        guard let algorithm, OBJ_obj2txt(&name, Int32(name.count), algorithm, 0) > 0 else { return nil }
        return EVP_CIPHER_fetch(nil, name, nil)
    }

    /// An ASN.1 SEQUENCE held in `type`, decoded as `item`; nil when it is not one.
    private static func unpack<Value>(_ item: OpaquePointer?, _ type: UnsafePointer<ASN1_TYPE>,
                                      as: Value.Type) -> UnsafeMutablePointer<Value>? {
        ASN1_TYPE_unpack_sequence(item, type)?.assumingMemoryBound(to: Value.self)
    }
}
