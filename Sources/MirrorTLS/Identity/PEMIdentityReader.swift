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
