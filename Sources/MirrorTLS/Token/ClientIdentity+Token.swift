import CLibP11
import CMirrorShims
import COpenSSL
import Foundation
import MirrorCore

/// Hardware-backed identities: the private key stays on a PKCS#11 token (smart card, USB
/// token, HSM, SoftHSM) and signs the TLS handshake there.
extension ClientIdentity {
    /// Where a token identity's certificate comes from.
    public enum TokenCertificate: Sendable, Equatable {
        /// From the token, found by this URI's `object`/`id`.
        case token(PKCS11URI)
        /// From a PEM (or DER) file; further certificates in it are the chain sent along.
        case file(String)
    }

    /// Loads a client identity whose private key is on a PKCS#11 token.
    ///
    /// The module is the URI's `module-path` (or `module-name`), else `module`, else p11-kit's
    /// proxy, which loads every module registered with p11-kit (`/usr/share/p11-kit/modules/`).
    /// The token is chosen by the URI's token attributes; the key by `object` and/or `id`. The
    /// PIN is asked for (through `pin`) only when the token needs a login, and only after the
    /// token was found. A certificate from the token comes with the chain of its issuers that
    /// are stored on the token too.
    ///
    /// The key never leaves the token: libp11 gives OpenSSL an `EVP_PKEY` whose signing runs on
    /// the token, which ``install(into:)`` installs like any other key.
    ///
    /// - Parameters:
    ///   - key: the URI of the private key.
    ///   - certificate: where the certificate comes from.
    ///   - module: the PKCS#11 module file, when the URI names none.
    ///   - pin: produces the PIN; called at most once, with the token's label.
    ///   - now: the time against which the certificate's validity is checked.
    /// - Throws: ``TokenError`` (module missing or not loadable, token absent, wrong or locked
    ///   PIN, key or certificate absent, key mismatch), ``IdentityError`` from `pin` or for a
    ///   certificate file that cannot be read or is out of its validity period.
    public static func loadFromToken(
        key: PKCS11URI, certificate: TokenCertificate, module: String? = nil,
        pin: (String) throws -> Secret?, now: Date = Date()
    ) throws -> ClientIdentity {
        let modulePath = try PKCS11ModuleLocator.resolve(uri: key, configured: module)
        let context = try PKCS11Context(modulePath: modulePath)
        try context.enumerateSlots()
        let slot = try TokenSelection.slot(in: context, matching: key)
        guard let token = slot.pointee.token else {
            throw TokenError.tokenAbsent(selection: key.tokenDescription, module: modulePath, seen: [])
        }
        let label = TokenSelection.text(token.pointee.label)
        if token.pointee.userPinLocked != 0 { throw TokenError.pinLocked(token: label) }
        if token.pointee.loginRequired != 0 {
            try login(slot: slot, context: context, tokenLabel: label, uri: key, secret: try pin(label))
        }
        let keyObject = try TokenSelection.key(on: token, matching: key, tokenLabel: label)
        guard let evp = CMirrorShims_PKCS11_get_private_key(keyObject) else {
            throw TokenError.pkcs11(operation: "PKCS11_get_private_key", detail: OpenSSLErrorQueue.drainedText())
        }
        let privateKey = PrivateKey(taking: evp, owner: context)
        TokenKeepAlive.keep(privateKey)  // never torn down while threads may still run (see TokenKeepAlive)
        let leaf: X509Certificate
        var chain: [X509Certificate] = []
        let source: String
        let shownAs: String
        switch certificate {
        case .token(let uri):
            let found = try TokenSelection.certificate(on: token, matching: uri, tokenLabel: label)
            leaf = found.leaf
            chain = found.chain
            source = "token"
            shownAs = uri.text
        case .file(let path):
            let bytes = try IdentityFile.read(path)
            let certificates = X509Certificate.readAllPEM(bytes)
            guard let first = certificates.first ?? X509Certificate(der: bytes) else {
                throw IdentityError.unrecognizedFormat(file: path)
            }
            leaf = first
            chain = Array(certificates.dropFirst())
            source = path
            shownAs = path
        }
        guard X509_check_private_key(leaf.pointer, privateKey.pointer) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            throw TokenError.keyMismatch(certificate: shownAs, key: key.text)
        }
        let info = TokenKeyInfo(
            module: modulePath, tokenLabel: label, manufacturer: TokenSelection.text(token.pointee.manufacturer),
            model: TokenSelection.text(token.pointee.model), serial: TokenSelection.text(token.pointee.serialnr),
            slotID: CMirrorShims_PKCS11_get_slotid_from_slot(slot), keyLabel: keyObject.pointee.label.map { String(cString: $0) },
            keyID: TokenSelection.idText(keyObject.pointee.id, length: keyObject.pointee.id_len), certificateSource: source)
        let identity = try ClientIdentity(key: privateKey, certificate: leaf, chain: chain, file: shownAs, token: info)
        try identity.checkValidity(now: now, file: shownAs)
        return identity
    }

    /// Logs in as the token's user; a refused PIN becomes ``TokenError/wrongPIN(token:status:)``
    /// with what the token says about the tries left (its flags, read again after the failure).
    private static func login(
        slot: UnsafeMutablePointer<PKCS11_SLOT>, context: PKCS11Context, tokenLabel: String, uri: PKCS11URI, secret: Secret?
    ) throws(TokenError) {
        guard let secret else {
            throw .pkcs11(operation: "C_Login", detail: "token '\(tokenLabel)' needs a PIN and none was given")
        }
        let status = CMirrorShims_PKCS11_login(slot, 0, secret.reveal())
        if status == 0 { return }
        let (code, text) = PKCS11Context.drainReturnValue()
        switch code {
        case PKCS11ReturnValue.pinIncorrect?, PKCS11ReturnValue.pinInvalid?, PKCS11ReturnValue.pinLenRange?:
            throw .wrongPIN(token: tokenLabel, status: (try? pinStatus(context: context, uri: uri)) ?? .init())
        case PKCS11ReturnValue.pinLocked?:
            throw .pinLocked(token: tokenLabel)
        case PKCS11ReturnValue.tokenNotPresent?, PKCS11ReturnValue.deviceRemoved?:
            throw .tokenAbsent(selection: uri.tokenDescription, module: context.modulePath, seen: [])
        default:
            throw .pkcs11(operation: "C_Login", detail: text)
        }
    }

    /// The token's PIN flags, from a fresh slot enumeration.
    private static func pinStatus(context: PKCS11Context, uri: PKCS11URI) throws(TokenError) -> TokenError.PINStatus {
        try context.enumerateSlots()
        guard let token = try TokenSelection.slot(in: context, matching: uri).pointee.token else { return .init() }
        return .init(countLow: token.pointee.userPinCountLow != 0, finalTry: token.pointee.userPinFinalTry != 0,
                     locked: token.pointee.userPinLocked != 0)
    }
}
