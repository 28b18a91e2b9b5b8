import COpenSSL
import MirrorCore

/// Opens PEM identities: a certificate file (leaf first, then the chain) and a key that is
/// either in its own file or in the certificate file.
enum PEMIdentityReader {
    /// Parses PEM certificate and key bytes into an identity.
    static func read(
        certificateBytes: [UInt8], certificateFile: String, keyFile: String?, password: Secret?
    ) throws(IdentityError) -> ClientIdentity {
        let certificates = X509Certificate.readAllPEM(certificateBytes)
        guard let leaf = certificates.first else { throw .unrecognizedFormat(file: certificateFile) }
        let keyPath = keyFile ?? certificateFile
        let keyBytes = keyFile == nil ? certificateBytes : try IdentityFile.read(keyPath)
        guard containsPrivateKey(keyBytes) else { throw .noPrivateKey(file: keyPath) }
        let key = try readKey(keyBytes, file: keyPath, password: password)
        try ClientIdentity.checkKey(key, matches: leaf, certificateFile: certificateFile, keyFile: keyPath)
        return try ClientIdentity(key: key, certificate: leaf, chain: Array(certificates.dropFirst()), file: certificateFile)
    }

    /// Whether the text has a PEM private-key block (`PRIVATE KEY-----`, any algorithm, encrypted or not).
    static func containsPrivateKey(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains("PRIVATE KEY-----")
    }

    /// Reads the first private key, asking `PasswordBox` for the password when it is encrypted.
    private static func readKey(_ bytes: [UInt8], file: String, password: Secret?) throws(IdentityError) -> PrivateKey {
        if let key = readPKCS8(bytes, password: password) { return key }
        guard let bio = MemoryBIO(bytes) else {
            throw .openSSL(operation: "BIO_new_mem_buf", detail: OpenSSLErrorQueue.drainedText())
        }
        let box = PasswordBox(password)
        let key = withExtendedLifetime(box) {
            PEM_read_bio_PrivateKey(bio.pointer, nil, PasswordBox.callback, Unmanaged.passUnretained(box).toOpaque())
        }
        let entries = OpenSSLErrorQueue.drain()
        guard let key else {
            if box.wasAsked { throw password == nil ? .passwordRequired(file: file) : .wrongPassword(file: file) }
            throw .openSSL(operation: "PEM_read_bio_PrivateKey", detail: OpenSSLErrorQueue.describe(entries))
        }
        return PrivateKey(taking: key)
    }
}

extension PEMIdentityReader {
    /// The key of the first private-key block when it is a PKCS#8 one: unencrypted
    /// (`-----BEGIN PRIVATE KEY-----`, what OpenSSL 3 writes) or, given a password, encrypted
    /// (`-----BEGIN ENCRYPTED PRIVATE KEY-----`). Read by ``PrivateKeyDecoder`` instead of
    /// `PEM_read_bio_PrivateKey`'s decoder framework (0.7–1.6 ms; issue #27). Nil for any other
    /// block, or any failure (a wrong password too): the caller then reads the file as before,
    /// with OpenSSL's errors and password handling.
    static func readPKCS8(_ bytes: [UInt8], password: Secret?) -> PrivateKey? {
        guard let start = firstPrivateKeyBlock(bytes) else { return nil }
        let block = bytes[start...]
        let encrypted = block.starts(with: encryptedPKCS8Label)
        guard encrypted || block.starts(with: plainPKCS8Label), let bio = MemoryBIO(Array(block)) else { return nil }
        // A callback that answers no: a block with (traditional) encryption headers falls back.
        let box = PasswordBox(nil)
        ERR_set_mark()
        var info: OpaquePointer?
        if encrypted {
            if let password, let sealed = withExtendedLifetime(box, {
                PEM_read_bio_PKCS8(bio.pointer, nil, PasswordBox.callback, Unmanaged.passUnretained(box).toOpaque())
            }) {
                let text = password.reveal()
                info = PKCS8_decrypt(sealed, text, Int32(text.utf8.count))
                X509_SIG_free(sealed)
            }
        } else {
            info = withExtendedLifetime(box) {
                PEM_read_bio_PKCS8_PRIV_KEY_INFO(bio.pointer, nil, PasswordBox.callback, Unmanaged.passUnretained(box).toOpaque())
            }
        }
        guard let info, !box.wasAsked, let key = PrivateKeyDecoder.key(of: info) else {
            if let info { PKCS8_PRIV_KEY_INFO_free(info) }
            ERR_pop_to_mark()
            return nil
        }
        PKCS8_PRIV_KEY_INFO_free(info)
        ERR_clear_last_mark()
        return PrivateKey(taking: key)
    }

    private static let plainPKCS8Label = Array("-----BEGIN PRIVATE KEY-----".utf8)
    private static let encryptedPKCS8Label = Array("-----BEGIN ENCRYPTED PRIVATE KEY-----".utf8)

    /// The offset of the first `-----BEGIN …PRIVATE KEY-----` line, the block
    /// `PEM_read_bio_PrivateKey` would read.
    static func firstPrivateKeyBlock(_ bytes: [UInt8]) -> Int? {
        let begin = Array("-----BEGIN ".utf8)
        let suffix = Array("PRIVATE KEY-----".utf8)
        var index = 0
        while index + begin.count <= bytes.count {
            guard bytes[index...].starts(with: begin) else {
                index += 1
                continue
            }
            var end = index + begin.count
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            let line = bytes[index..<end]
            if line.count >= begin.count + suffix.count, line.suffix(suffix.count).elementsEqual(suffix) { return index }
            index = end
        }
        return nil
    }
}

/// Hands a password to OpenSSL's `pem_password_cb` and records whether one was asked for.
///
/// Always passing this callback also stops OpenSSL from prompting on the terminal by itself.
final class PasswordBox {
    private let password: [UInt8]?
    /// Whether OpenSSL asked for a password (the key is encrypted).
    private(set) var wasAsked = false

    init(_ secret: Secret?) { password = secret.map { Array($0.reveal().utf8) } }

    /// The `pem_password_cb`; `userdata` is an unretained `PasswordBox`.
    static let callback: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
        buffer, size, _, userdata in
        guard let buffer, let userdata else { return -1 }
        let box = Unmanaged<PasswordBox>.fromOpaque(userdata).takeUnretainedValue()
        box.wasAsked = true
        guard let password = box.password, !password.isEmpty, password.count <= Int(size) else { return -1 }
        for (index, byte) in password.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        return Int32(password.count)
    }
}
