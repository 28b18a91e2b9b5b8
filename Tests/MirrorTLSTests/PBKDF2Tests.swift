import CMirrorShims
import COpenSSL
import Foundation
import MirrorCore
import MirrorTestSupport
import Testing
@testable import MirrorTLS

/// ``PBKDF2`` against the standard's vectors and OpenSSL's own derivation, and
/// ``PBES2KeyGenerator`` taking the files it should, leaving the rest to OpenSSL, and writing
/// what OpenSSL's own command reads back.
@Suite struct PBKDF2Tests {
    static func derive(_ password: [UInt8], _ salt: [UInt8], rounds: Int, length: Int) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: length)
        password.withUnsafeBytes { password in
            salt.withUnsafeBytes { salt in
                key.withUnsafeMutableBytes { PBKDF2.hmacSHA256(password: password, salt: salt, rounds: rounds, into: $0) }
            }
        }
        return key
    }

    static func openSSLDerive(_ password: [UInt8], _ salt: [UInt8], rounds: Int, length: Int) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: length)
        let status = password.withUnsafeBufferPointer { password in
            salt.withUnsafeBufferPointer { salt in
                PKCS5_PBKDF2_HMAC(password.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(password.count), salt.baseAddress, Int32(salt.count), Int32(rounds),
                                  EVP_sha256(), Int32(length), &key)
            }
        }
        #expect(status == 1)
        return key
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// RFC 7914, section 11 (PBKDF2-HMAC-SHA256).
    @Test func standardVectors() {
        #expect(Self.hex(Self.derive(Array("passwd".utf8), Array("salt".utf8), rounds: 1, length: 64))
            == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
        #expect(Self.hex(Self.derive(Array("Password".utf8), Array("NaCl".utf8), rounds: 80_000, length: 64))
            == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    /// Passwords shorter than, as long as and longer than a block (then hashed first), empty
    /// salts and passwords, one round and many, keys shorter than, as long as and longer than
    /// a digest (then several blocks).
    @Test(arguments: [(0, 8, 1, 32), (1, 0, 2, 16), (14, 16, 2_048, 32), (63, 8, 7, 33), (64, 20, 3, 64),
                      (65, 8, 5, 100), (200, 100, 11, 1), (32, 16, 2_048, 24)])
    func matchesOpenSSL(passwordLength: Int, saltLength: Int, rounds: Int, keyLength: Int) {
        let password = (0..<passwordLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let salt = (0..<saltLength).map { UInt8(truncatingIfNeeded: $0 &* 101 &+ 7) }
        let ours = Self.derive(password, salt, rounds: rounds, length: keyLength)
        #expect(ours == Self.openSSLDerive(password, salt, rounds: rounds, length: keyLength))
        #expect(ours != Self.derive(password, salt, rounds: rounds + 1, length: keyLength))
    }

    /// OpenSSL 3's `pkcs12 -export` encrypts the certificates' bag and the key's bag with PBES2,
    /// PBKDF2-HMAC-SHA-256 and AES-256-CBC: both keys are derived here, and the identity is the
    /// one the PEM files hold.
    @Test func pkcs12BagsAreDerivedHere() throws {
        let before = PBES2KeyGenerator.derivationsOnThisThread
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: Secret(TestPKI.password))
        #expect(PBES2KeyGenerator.derivationsOnThisThread - before == 2)
        let pem = try ClientIdentity.load(certificate: TestPKI.path("client-chain.pem"), key: TestPKI.path("client.key"))
        #expect(identity.leaf.sha256 == pem.leaf.sha256)
        #expect(identity.chain.map(\.sha256) == pem.chain.map(\.sha256))
    }

    /// Keys encrypted by `openssl pkcs8 -v2 CIPHER -v2prf PRF`: with HMAC-SHA-256, whatever the
    /// cipher's key length (AES-128, -192, -256, 3DES), the key is derived here; with another PRF,
    /// OpenSSL's own PBES2 derives it. Either way the identity loads, and a wrong password is
    /// reported as one.
    @Test(arguments: [("aes-128-cbc", "hmacWithSHA256", true), ("aes-192-cbc", "hmacWithSHA256", true),
                      ("aes-256-cbc", "hmacWithSHA256", true), ("des-ede3-cbc", "hmacWithSHA256", true),
                      ("aes-128-cbc", "hmacWithSHA512", false), ("aes-256-cbc", "hmacWithSHA1", false)])
    func encryptedKeysLoadOnEitherPath(cipher: String, prf: String, derivedHere: Bool) throws {
        let folder = try TemporaryDirectory(prefix: "pbkdf2")
        defer { folder.remove() }  // alive, with its files, to the end
        let keyFile = folder.appending("\(cipher)-\(prf).key").path
        let made = try TestPKI.runProcess("/usr/bin/openssl", [
            "pkcs8", "-topk8", "-in", TestPKI.path("client.key"), "-v2", cipher, "-v2prf", prf,
            "-passout", "pass:\(TestPKI.password)", "-out", keyFile])
        #expect(made.status == 0)
        let before = PBES2KeyGenerator.derivationsOnThisThread
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client.pem"), key: keyFile, password: Secret(TestPKI.password))
        #expect(identity.leaf.subject.contains("CN=mirror-client-1"))
        #expect(PBES2KeyGenerator.derivationsOnThisThread - before == (derivedHere ? 1 : 0))
        #expect(throws: IdentityError.wrongPassword(file: keyFile)) {
            try ClientIdentity.load(certificate: TestPKI.path("client.pem"), key: keyFile, password: Secret("not-the-password"))
        }
    }

    /// With the generator installed, a key OpenSSL encrypts (PBES2's defaults: PBKDF2-HMAC-SHA-256)
    /// goes through it, and `openssl pkey`, a process without it, decrypts the same key.
    @Test func encryptedHereDecryptsWithOpenSSLsCommand() throws {
        #expect(PBES2KeyGenerator.install())
        let folder = try TemporaryDirectory(prefix: "pbkdf2")
        defer { folder.remove() }  // alive, with its files, to the end
        let keyFile = folder.appending("written.key").path
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client-chain.pem"), key: TestPKI.path("client.key"))
        let before = PBES2KeyGenerator.derivationsOnThisThread
        let bio = try #require(BIO_new(BIO_s_mem()))
        defer { BIO_free(bio) }
        let password = Array(TestPKI.password.utf8CString)
        let written = password.withUnsafeBufferPointer {
            PEM_write_bio_PKCS8PrivateKey(bio, identity.key.pointer, EVP_aes_256_cbc(), $0.baseAddress, Int32(password.count - 1), nil, nil)
        }
        #expect(written == 1)
        #expect(PBES2KeyGenerator.derivationsOnThisThread - before == 1)
        var data: UnsafeMutablePointer<CChar>?
        let length = CMirrorShims_BIO_get_mem_data(bio, &data)
        let pem = Data(bytes: try #require(data), count: length)
        #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        try pem.write(to: URL(fileURLWithPath: keyFile))
        let decrypted = try TestPKI.runProcess("/usr/bin/openssl", ["pkey", "-in", keyFile, "-passin", "pass:\(TestPKI.password)", "-pubout"])
        let original = try TestPKI.runProcess("/usr/bin/openssl", ["pkey", "-in", TestPKI.path("client.key"), "-pubout"])
        #expect(decrypted.status == 0)
        #expect(decrypted.output.contains("BEGIN PUBLIC KEY"))
        #expect(decrypted.output == original.output)
        let wrong = try TestPKI.runProcess("/usr/bin/openssl", ["pkey", "-in", keyFile, "-passin", "pass:wrong", "-pubout"])
        #expect(wrong.status != 0)
    }
}
