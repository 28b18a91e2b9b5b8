import COpenSSL
import CMirrorShims
import Foundation
import MirrorCore
import MirrorTestSupport
import Testing
@testable import MirrorTLS

/// ``PrivateKeyDecoder`` and the PKCS#12 and PEM readers that use it: RSA and named-curve EC
/// keys are read by their own decoders, every other key by OpenSSL's decoder framework, and
/// either way the identity is the one OpenSSL's `PKCS12_parse` and `PEM_read_bio_PrivateKey`
/// find, and its key signs what its certificate verifies.
@Suite struct PrivateKeyDecoderTests {
    static let password = "Dec0der-Pa55"

    /// One key of each kind, with a self-signed certificate, as PEM files and a PKCS#12 file.
    struct Material {
        let folder: TemporaryDirectory
        let key: String
        let certificate: String
        let p12: String
    }

    static func make(_ algorithm: [String], name: String, p12Options: [String] = []) throws -> Material {
        let folder = try TemporaryDirectory(prefix: "keydecoder")
        let key = folder.appending("\(name).key").path
        let certificate = folder.appending("\(name).pem").path
        let p12 = folder.appending("\(name).p12").path
        let generated = try TestPKI.runProcess("/usr/bin/openssl", ["genpkey"] + algorithm + ["-out", key])
        #expect(generated.status == 0)
        let signed = try TestPKI.runProcess("/usr/bin/openssl", [
            "req", "-x509", "-new", "-key", key, "-subj", "/CN=decoder-\(name)", "-days", "2", "-out", certificate])
        #expect(signed.status == 0)
        let packed = try TestPKI.runProcess("/usr/bin/openssl", [
            "pkcs12", "-export", "-inkey", key, "-in", certificate, "-passout", "pass:\(password)", "-out", p12] + p12Options)
        #expect(packed.status == 0)
        return Material(folder: folder, key: key, certificate: certificate, p12: p12)
    }

    /// The PKCS#8 structure of a PEM `PRIVATE KEY` file.
    static func pkcs8(_ path: String) throws -> OpaquePointer {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let bio = try #require(MemoryBIO([UInt8](bytes)))
        return try #require(PEM_read_bio_PKCS8_PRIV_KEY_INFO(bio.pointer, nil, nil, nil))
    }

    /// Whether `key` signs bytes that `certificate`'s public key verifies (SHA-256, or none for
    /// Ed25519).
    static func signs(_ key: OpaquePointer, verifiedBy certificate: OpaquePointer) -> Bool {
        let message = Array("mtls-mirror signs this".utf8)
        let digest: String? = EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 ? nil : "SHA256"
        guard let signer = EVP_MD_CTX_new(), let verifier = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(signer)
            EVP_MD_CTX_free(verifier)
        }
        guard EVP_DigestSignInit_ex(signer, nil, digest, nil, nil, key, nil) == 1 else { return false }
        var length = 0
        guard EVP_DigestSign(signer, nil, &length, message, message.count) == 1 else { return false }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(signer, &signature, &length, message, message.count) == 1 else { return false }
        guard let publicKey = X509_get0_pubkey(certificate),
              EVP_DigestVerifyInit_ex(verifier, nil, digest, nil, nil, publicKey, nil) == 1
        else { return false }
        return EVP_DigestVerify(verifier, signature, length, message, message.count) == 1
    }

    @Test(arguments: [
        (["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], "rsa", true),
        (["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], "p256", true),
        (["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"], "p384", true),
        (["-algorithm", "ED25519"], "ed25519", false),
        (["-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048"], "rsapss", false),
    ])
    func keysReadEitherWayAreOpenSSLs(algorithm: [String], name: String, direct: Bool) throws {
        let material = try Self.make(algorithm, name: name)
        defer { material.folder.remove() }
        let info = try Self.pkcs8(material.key)
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let fast = PrivateKeyDecoder.direct(info)
        #expect((fast != nil) == direct)
        if let fast { EVP_PKEY_free(fast) }

        let key = try #require(PrivateKeyDecoder.key(of: info))
        defer { EVP_PKEY_free(key) }
        let openSSLs = try #require(EVP_PKCS82PKEY(info))
        defer { EVP_PKEY_free(openSSLs) }
        #expect(EVP_PKEY_eq(key, openSSLs) == 1)
        #expect(EVP_PKEY_get_id(key) == EVP_PKEY_get_id(openSSLs))
        #expect(EVP_PKEY_get_bits(key) == EVP_PKEY_get_bits(openSSLs))

        // The whole identity, from the PKCS#12 file and from the PEM files: the same
        // certificate, and a key that signs what the certificate verifies.
        let fromP12 = try ClientIdentity.load(certificate: material.p12, password: Secret(Self.password))
        let fromPEM = try ClientIdentity.load(certificate: material.certificate, key: material.key)
        #expect(fromP12.leaf.sha256 == fromPEM.leaf.sha256)
        #expect(fromP12.leaf.subject.contains("CN=decoder-\(name)"))
        #expect(Self.signs(fromP12.key.pointer, verifiedBy: fromP12.certificate.pointer))
        #expect(Self.signs(fromPEM.key.pointer, verifiedBy: fromPEM.certificate.pointer))
        let context = try #require(SSL_CTX_new(TLS_client_method()))
        defer { SSL_CTX_free(context) }
        try fromP12.install(into: context)
    }

    /// The inner key DER of a freshly generated key's PKCS#8 structure.
    static func keyDER(_ algorithm: [String], name: String) throws -> (material: Material, info: OpaquePointer, der: [UInt8]) {
        let material = try make(algorithm, name: name)
        let info = try pkcs8(material.key)
        var der: UnsafePointer<UInt8>?
        var length: Int32 = 0
        #expect(PKCS8_pkey_get0(nil, &der, &length, nil, info) == 1)
        return (material, info, Array(UnsafeBufferPointer(start: try #require(der), count: Int(length))))
    }

    /// A new PKCS#8 structure holding `der` under the algorithm `nid` with the given parameter.
    static func wrap(_ der: [UInt8], nid: Int32, parameterType: Int32, parameter: UnsafeMutableRawPointer?) throws -> OpaquePointer {
        let info = try #require(PKCS8_PRIV_KEY_INFO_new())
        let buffer = try #require(CRYPTO_malloc(der.count, nil, 0))
        buffer.copyMemory(from: der, byteCount: der.count)
        #expect(PKCS8_pkey_set0(info, OBJ_nid2obj(nid), 0, parameterType, parameter,
                                buffer.assumingMemoryBound(to: UInt8.self), Int32(der.count)) == 1)
        return info
    }

    /// An RSA key whose DER has a byte after its end is not read here; OpenSSL's decoder
    /// decides (and the key it gives, if any, is its own).
    @Test func trailingBytesAreLeftToOpenSSL() throws {
        let (material, info, der) = try Self.keyDER(["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], name: "trailing")
        defer {
            PKCS8_PRIV_KEY_INFO_free(info)
            material.folder.remove()
        }
        let padded = try Self.wrap(der + [0], nid: NID_rsaEncryption, parameterType: V_ASN1_NULL, parameter: nil)
        defer { PKCS8_PRIV_KEY_INFO_free(padded) }
        #expect(PrivateKeyDecoder.direct(padded) == nil)
        let exact = try Self.wrap(der, nid: NID_rsaEncryption, parameterType: V_ASN1_NULL, parameter: nil)
        defer { PKCS8_PRIV_KEY_INFO_free(exact) }
        let key = try #require(PrivateKeyDecoder.direct(exact))
        EVP_PKEY_free(key)
        _ = OpenSSLErrorQueue.drain()
    }

    /// An EC key whose algorithm names no curve the library knows is not read here.
    @Test func unknownCurveIsLeftToOpenSSL() throws {
        let (material, info, der) = try Self.keyDER(["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], name: "curve")
        defer {
            PKCS8_PRIV_KEY_INFO_free(info)
            material.folder.remove()
        }
        // An OID with no curve behind it: the EC decoder cannot make a group.
        let unknown = try #require(OBJ_txt2obj("1.3.6.1.4.1.55555.1", 1))
        let copy = try Self.wrap(der, nid: NID_X9_62_id_ecPublicKey, parameterType: V_ASN1_OBJECT,
                                 parameter: UnsafeMutableRawPointer(unknown))
        defer { PKCS8_PRIV_KEY_INFO_free(copy) }
        #expect(PrivateKeyDecoder.direct(copy) == nil)
        _ = OpenSSLErrorQueue.drain()
    }

    /// PKCS#12 files of other shapes read as `PKCS12_parse` reads them: the leaf is the
    /// certificate the key matches wherever it stands, the rest is the chain in file order.
    @Test func pkcs12ReadsAsOpenSSLParses() throws {
        let material = try Self.make(["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], name: "shapes")
        defer { material.folder.remove() }
        let folder = material.folder
        // The leaf with two other certificates (the test PKI client and its CA) in the file.
        let others = try String(contentsOfFile: TestPKI.path("client-chain.pem"), encoding: .utf8)
        let leaf = try String(contentsOfFile: material.certificate, encoding: .utf8)
        let mixed = folder.appending("mixed.pem").path
        try (others + leaf).write(toFile: mixed, atomically: true, encoding: .utf8)
        let cases: [(name: String, options: [String])] = [
            ("with-others", ["-inkey", material.key, "-in", mixed]),
            ("plain-key", ["-inkey", material.key, "-in", material.certificate, "-keypbe", "NONE", "-certpbe", "NONE"]),
        ]
        for (name, options) in cases {
            let file = folder.appending("\(name).p12").path
            let made = try TestPKI.runProcess("/usr/bin/openssl", ["pkcs12", "-export", "-passout", "pass:\(Self.password)", "-out", file] + options)
            #expect(made.status == 0, "\(name)")
            let identity = try ClientIdentity.load(certificate: file, password: Secret(Self.password))
            let expected = try Self.openSSLParse(file)
            #expect(identity.leaf.der == expected.leaf, "\(name)")
            #expect(identity.chain.map(\.der) == expected.chain, "\(name)")
            #expect(identity.leaf.subject.contains("CN=decoder-shapes"), "\(name)")
        }
        // Without a MAC (OpenSSL 3.0's PKCS12_parse refuses it when given a password): it opens
        // with its password, and a wrong one fails.
        let noMAC = folder.appending("no-mac.p12").path
        #expect(try TestPKI.runProcess("/usr/bin/openssl", [
            "pkcs12", "-export", "-inkey", material.key, "-in", material.certificate, "-nomac",
            "-passout", "pass:\(Self.password)", "-out", noMAC]).status == 0)
        let opened = try ClientIdentity.load(certificate: noMAC, password: Secret(Self.password))
        let pem = try ClientIdentity.load(certificate: material.certificate, key: material.key)
        #expect(opened.leaf.der == pem.leaf.der)
        #expect(throws: IdentityError.self) { try ClientIdentity.load(certificate: noMAC, password: Secret("not-the-Pa55")) }
        let withOthers = try ClientIdentity.load(certificate: folder.appending("with-others.p12").path, password: Secret(Self.password))
        #expect(withOthers.chain.count == 2)
    }

    /// A PKCS#12 file with certificates only has no key; one with a key only has no certificate.
    @Test func pkcs12WithoutKeyOrCertificateFails() throws {
        let material = try Self.make(["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], name: "partial")
        defer { material.folder.remove() }
        let certificatesOnly = material.folder.appending("certs.p12").path
        let keyOnly = material.folder.appending("key.p12").path
        #expect(try TestPKI.runProcess("/usr/bin/openssl", [
            "pkcs12", "-export", "-nokeys", "-in", material.certificate, "-passout", "pass:\(Self.password)", "-out", certificatesOnly]).status == 0)
        #expect(try TestPKI.runProcess("/usr/bin/openssl", [
            "pkcs12", "-export", "-nocerts", "-inkey", material.key, "-passout", "pass:\(Self.password)", "-out", keyOnly]).status == 0)
        #expect(throws: IdentityError.noPrivateKey(file: certificatesOnly)) {
            try ClientIdentity.load(certificate: certificatesOnly, password: Secret(Self.password))
        }
        #expect(throws: IdentityError.openSSL(operation: "PKCS12_parse", detail: "\(keyOnly) holds a key but no matching certificate")) {
            try ClientIdentity.load(certificate: keyOnly, password: Secret(Self.password))
        }
        #expect(throws: IdentityError.wrongPassword(file: keyOnly)) {
            try ClientIdentity.load(certificate: keyOnly, password: Secret("another-Pa55"))
        }
    }

    /// A PKCS#12 file with an empty password opens without one.
    @Test func pkcs12WithEmptyPasswordOpensWithoutOne() throws {
        let material = try Self.make(["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], name: "empty")
        defer { material.folder.remove() }
        let file = material.folder.appending("empty-password.p12").path
        #expect(try TestPKI.runProcess("/usr/bin/openssl", [
            "pkcs12", "-export", "-inkey", material.key, "-in", material.certificate, "-passout", "pass:", "-out", file]).status == 0)
        let identity = try ClientIdentity.load(certificate: file)
        #expect(identity.leaf.subject.contains("CN=decoder-empty"))
        #expect(throws: IdentityError.wrongPassword(file: file)) {
            try ClientIdentity.load(certificate: file, password: Secret("not-empty-Pa55"))
        }
    }

    /// The fast PEM path takes a PKCS#8 block, unencrypted or (with its password) encrypted,
    /// wherever it stands in the file, and leaves traditional blocks, and encrypted ones without
    /// the right password, to `PEM_read_bio_PrivateKey`.
    @Test func pemFastPathTakesOnlyPKCS8() throws {
        let plain = [UInt8](try #require(FileManager.default.contents(atPath: TestPKI.path("client.key"))))
        let combined = [UInt8](try #require(FileManager.default.contents(atPath: TestPKI.path("client-combined.pem"))))
        let encrypted = [UInt8](try #require(FileManager.default.contents(atPath: TestPKI.path("client-enc.key"))))
        #expect(String(decoding: encrypted, as: UTF8.self).hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        let fromPlain = try #require(PEMIdentityReader.readPKCS8(plain, password: nil))
        let fromEncrypted = try #require(PEMIdentityReader.readPKCS8(encrypted, password: Secret(TestPKI.password)))
        #expect(EVP_PKEY_eq(fromPlain.pointer, fromEncrypted.pointer) == 1)
        #expect(PEMIdentityReader.readPKCS8(encrypted, password: nil) == nil)
        #expect(PEMIdentityReader.readPKCS8(encrypted, password: Secret("not-the-Pa55")) == nil)
        #expect(ERR_peek_error() == 0)
        let fromCombined = try #require(PEMIdentityReader.firstPrivateKeyBlock(combined))
        #expect(String(decoding: combined[fromCombined...].prefix(11), as: UTF8.self) == "-----BEGIN ")
        let traditional = try TestPKI.runProcess("/usr/bin/openssl", ["ec", "-in", TestPKI.path("client.key")])
        #expect(traditional.output.contains("-----BEGIN EC PRIVATE KEY-----"))
        #expect(PEMIdentityReader.readPKCS8(Array(traditional.output.utf8), password: nil) == nil)
        #expect(PEMIdentityReader.firstPrivateKeyBlock(Array("-----BEGIN CERTIFICATE-----\nAAAA\n".utf8)) == nil)
        let shifted = Array("junk\n-----BEGIN CERTIFICATE-----\n".utf8) + plain
        #expect(PEMIdentityReader.firstPrivateKeyBlock(shifted) == 33)
    }

    /// The leaf and chain (DER) that OpenSSL's own `PKCS12_parse` finds in `file`.
    static func openSSLParse(_ file: String) throws -> (leaf: [UInt8], chain: [[UInt8]]) {
        let bytes = try #require(FileManager.default.contents(atPath: file))
        let bio = try #require(MemoryBIO([UInt8](bytes)))
        let p12 = try #require(d2i_PKCS12_bio(bio.pointer, nil))
        defer { PKCS12_free(p12) }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var stack: OpaquePointer?
        #expect(PKCS12_parse(p12, password, &key, &certificate, &stack) == 1)
        defer {
            EVP_PKEY_free(key)
            if let stack { CMirrorShims_sk_X509_pop_free(stack) }
        }
        let leaf = X509Certificate(taking: try #require(certificate))
        return (try #require(leaf.der), X509Stack.certificates(in: stack).map { $0.der ?? [] })
    }
}
