import Foundation
import MirrorCore
import MirrorTLS

/// Loads a client identity whose key is on a PKCS#11 token, from the same `cert`/`key` values
/// the command line and config.json use for files: `--cert 'pkcs11:…'` takes both the key and
/// the certificate from the token; `--cert FILE --key 'pkcs11:…'` takes the certificate from
/// the file; `--cert 'pkcs11:…' --key 'pkcs11:…'` names them apart.
struct TokenIdentityLoader {
    var certificate: String
    var key: String?
    var module: String?
    var pin: PasswordSource?

    /// Whether these values name a token rather than files.
    static func isToken(certificate: String, key: String?) -> Bool {
        PKCS11URI.isURI(certificate) || key.map(PKCS11URI.isURI) == true
    }

    /// Loads the identity; without a PIN source, asks on the terminal when there is one.
    ///
    /// - Throws: ``UsageError`` for a key file with a token certificate; ``TokenError`` and
    ///   ``IdentityError`` from ``ClientIdentity/loadFromToken(key:certificate:module:pin:now:)``.
    func load() throws -> ClientIdentity {
        let keyURI: PKCS11URI
        let source: ClientIdentity.TokenCertificate
        if let key, PKCS11URI.isURI(key) {
            keyURI = try PKCS11URI(parsing: key)
            source = PKCS11URI.isURI(certificate) ? .token(try PKCS11URI(parsing: certificate)) : .file(certificate)
        } else if key == nil {
            keyURI = try PKCS11URI(parsing: certificate)
            source = .token(keyURI)
        } else {
            throw UsageError("the certificate \(certificate) is on a token but the key \(key ?? "") is a file",
                             hint: "give the key as a pkcs11: URI too, or drop --key to take it from the token")
        }
        let pin = self.pin
        return try ClientIdentity.loadFromToken(key: keyURI, certificate: source, module: module, pin: { label throws -> Secret? in
            let name = "token '\(label)'"
            if let pin { return try pin.resolve(forFile: name) }
            guard Terminal.isTTY(0) else { throw IdentityError.noTerminalForPrompt(file: name) }
            return try PasswordSource.prompt.resolve(forFile: name)
        })
    }
}
