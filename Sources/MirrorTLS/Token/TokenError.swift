import MirrorCore

/// Why a hardware-backed client identity (a key on a PKCS#11 token) could not be used.
///
/// Each case has its own exit code (README "Exit codes"): a wrong or locked PIN 13, a token
/// that is not there 14, a key or certificate missing on the token 15, a PKCS#11 module that is
/// not installed 16. No case carries the PIN.
public enum TokenError: DiagnosableError, Equatable {
    /// The text is not a usable PKCS#11 URI (RFC 7512).
    case invalidURI(uri: String, reason: String)
    /// The URI carries `pin-value` or `pin-source`: a PIN never comes from the command line or a config value.
    case pinInURI(uri: String)
    /// The PKCS#11 module file does not exist; `package` is the Debian package that ships it, when known.
    case moduleMissing(path: String, package: String?)
    /// The module exists but could not be loaded or initialised (`PKCS11_CTX_load`).
    case moduleLoadFailed(path: String, detail: String)
    /// No slot holds a token that matches the URI; `seen` lists the tokens that were there.
    case tokenAbsent(selection: String, module: String, seen: [String])
    /// The token has no private key that matches the URI.
    case keyAbsent(token: String, object: String)
    /// The token has no certificate that matches the URI.
    case certificateAbsent(token: String, object: String)
    /// The token refused the PIN (`CKR_PIN_INCORRECT`); `status` is what the token says about the tries left.
    case wrongPIN(token: String, status: PINStatus)
    /// The token's user PIN is locked (`CKR_PIN_LOCKED` or the token's flag).
    case pinLocked(token: String)
    /// The key on the token does not belong to the certificate.
    case keyMismatch(certificate: String, key: String)
    /// A libp11 call failed in another way; `detail` is the PKCS#11 or OpenSSL error text.
    case pkcs11(operation: String, detail: String)

    /// What a token says about its user PIN after a failed login (PKCS#11 token flags).
    public struct PINStatus: Sendable, Equatable {
        /// `CKF_USER_PIN_COUNT_LOW`: at least one wrong PIN was entered since the last success.
        public var countLow: Bool
        /// `CKF_USER_PIN_FINAL_TRY`: the next wrong PIN locks the token.
        public var finalTry: Bool
        /// `CKF_USER_PIN_LOCKED`: the PIN is locked now.
        public var locked: Bool

        public init(countLow: Bool = false, finalTry: Bool = false, locked: Bool = false) {
            self.countLow = countLow
            self.finalTry = finalTry
            self.locked = locked
        }

        /// One phrase for the message, or nil when the token says nothing.
        public var phrase: String? {
            if locked { return "the token has now LOCKED the PIN" }
            if finalTry { return "the token says ONE try is left: the next wrong PIN locks it" }
            if countLow { return "the token says tries are running low" }
            return nil
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .invalidURI, .pinInURI: .usage
        case .moduleMissing, .moduleLoadFailed: .tokenModule
        case .tokenAbsent: .tokenAbsent
        case .keyAbsent, .certificateAbsent: .tokenObjectAbsent
        case .wrongPIN, .pinLocked: .tokenPIN
        case .keyMismatch, .pkcs11: .clientIdentity
        }
    }

    public var summary: String {
        switch self {
        case let .invalidURI(uri, reason): "\(uri) is not a usable PKCS#11 URI: \(reason)"
        case let .pinInURI(uri): "the PKCS#11 URI \(uri) carries a PIN (pin-value or pin-source), which is refused"
        case let .moduleMissing(path, _): "the PKCS#11 module \(path) is not installed"
        case let .moduleLoadFailed(path, detail): "the PKCS#11 module \(path) could not be loaded: \(detail)"
        case let .tokenAbsent(selection, module, seen):
            "no token matching \(selection) is present (module \(module); "
                + (seen.isEmpty ? "no token at all)" : "tokens present: \(seen.joined(separator: ", ")))")
        case let .keyAbsent(token, object): "token '\(token)' has no private key with \(object)"
        case let .certificateAbsent(token, object): "token '\(token)' has no certificate with \(object)"
        case let .wrongPIN(token, status):
            "wrong PIN for token '\(token)'" + (status.phrase.map { ": \($0)" } ?? "")
        case let .pinLocked(token): "the PIN of token '\(token)' is locked"
        case let .keyMismatch(certificate, key): "the key \(key) does not belong to the certificate in \(certificate)"
        case let .pkcs11(operation, detail): "PKCS#11 \(operation) failed: \(detail)"
        }
    }

    public var hint: String {
        switch self {
        case .invalidURI: "write it as pkcs11:token=LABEL;object=KEY-LABEL (see `p11tool --list-all` or `pkcs11-tool -O`)"
        case .pinInURI: "remove the PIN from the URI; give it from an environment variable or a file, or type it at the prompt"
        case let .moduleMissing(_, package?): "apt-get install \(package)"
        case .moduleMissing: "install your token's PKCS#11 module (softhsm2, opensc, or the vendor's package), or name its file"
        case .moduleLoadFailed: "check that the file is a PKCS#11 module for this architecture; `pkcs11-tool --module FILE -L` tests it"
        case .tokenAbsent: "insert the card or token, or fix token= in the URI (`pkcs11-tool -L` lists the tokens)"
        case .keyAbsent, .certificateAbsent: "fix object= or id= in the URI (`pkcs11-tool --login -O` lists the objects), or give the certificate as a file with the key as its pkcs11: URI"
        case .wrongPIN(_, let status) where status.finalTry || status.locked:
            "STOP: check the PIN before trying again; a locked token needs its administrator (SO PIN) to unlock it"
        case .wrongPIN: "check the PIN source (an environment variable, a file or the prompt); each wrong try counts against the token's limit"
        case .pinLocked: "ask the token's administrator to unlock it with the SO PIN"
        case .keyMismatch: "use the certificate issued for this key, or the key= / id= of the key that goes with it"
        case .pkcs11: "run `pkcs11-tool --login -O` to check the token"
        }
    }
}
