import Foundation
import MirrorCore

/// Why a client identity (certificate, key, password) could not be loaded.
///
/// Each summary names the file; each hint says how to fix it. No case carries the password,
/// so no message can leak it.
public enum IdentityError: DiagnosableError, Equatable {
    /// The password does not open the file (PKCS#12 MAC failure or a key that will not decrypt).
    case wrongPassword(file: String)
    /// The file is encrypted and no password was given.
    case passwordRequired(file: String)
    /// The file is neither PKCS#12 nor PEM.
    case unrecognizedFormat(file: String)
    /// No private key was found (in the key file, or in the certificate file when no key file was given).
    case noPrivateKey(file: String)
    /// The private key does not belong to the certificate (`X509_check_private_key`).
    case keyMismatch(certificate: String, key: String)
    /// The client certificate's validity ended before now.
    case expired(file: String, subject: String, notAfter: Date)
    /// The client certificate's validity starts after now.
    case notYetValid(file: String, subject: String, notBefore: Date)
    /// The file could not be read at all.
    case unreadable(file: String, reason: String)
    /// The PKCS#12 file uses RC2/3DES and OpenSSL's `legacy` provider could not be loaded.
    case legacyAlgorithmUnavailable(file: String)
    /// The environment variable meant to hold the password is unset or empty.
    case passwordVariableMissing(variable: String, file: String)
    /// The password file could not be read.
    case passwordFileUnreadable(path: String, file: String)
    /// A password prompt was needed but there is no terminal to ask on.
    case noTerminalForPrompt(file: String)
    /// An OpenSSL call failed; `detail` is OpenSSL's error text.
    case openSSL(operation: String, detail: String)

    public var category: ErrorCategory { .clientIdentity }

    public var summary: String {
        switch self {
        case let .wrongPassword(file): return "wrong password for client identity \(file)"
        case let .passwordRequired(file): return "client identity \(file) is encrypted and no password was given"
        case let .unrecognizedFormat(file): return "client identity \(file) is neither PKCS#12 nor PEM"
        case let .noPrivateKey(file): return "no private key found in \(file)"
        case let .keyMismatch(certificate, key):
            return "the private key in \(key) does not belong to the certificate in \(certificate)"
        case let .expired(file, subject, notAfter):
            return "client certificate '\(subject)' in \(file) expired on \(Self.format(notAfter))"
        case let .notYetValid(file, subject, notBefore):
            return "client certificate '\(subject)' in \(file) is not valid before \(Self.format(notBefore))"
        case let .unreadable(file, reason): return "cannot read client identity \(file): \(reason)"
        case let .legacyAlgorithmUnavailable(file):
            return "client identity \(file) uses legacy encryption (RC2/3DES) and OpenSSL's legacy provider is unavailable"
        case let .passwordVariableMissing(variable, file):
            return "environment variable \(variable) (password for \(file)) is not set or empty"
        case let .passwordFileUnreadable(path, file): return "cannot read password file \(path) (password for \(file))"
        case let .noTerminalForPrompt(file): return "a password for \(file) is needed but there is no terminal to ask on"
        case let .openSSL(operation, detail): return "OpenSSL \(operation) failed: \(detail)"
        }
    }

    public var hint: String {
        switch self {
        case .wrongPassword: return "check the password source (an environment variable, a file or the prompt)"
        case .passwordRequired: return "give the password from an environment variable or a file, or run on a terminal to be prompted"
        case .unrecognizedFormat: return "use a .p12/.pfx file or PEM files (-----BEGIN CERTIFICATE-----); set the type explicitly if needed"
        case .noPrivateKey: return "give the key file too, or use a PEM file that holds the key"
        case .keyMismatch: return "pass the key that was generated with this certificate"
        case .expired: return "renew the client certificate"
        case .notYetValid: return "check this machine's clock, or wait until the certificate becomes valid"
        case .unreadable: return "check the path and the file's permissions"
        case .legacyAlgorithmUnavailable:
            return "install OpenSSL's legacy provider (ossl-modules/legacy.so), or re-export the file: "
                + "openssl pkcs12 -legacy -in old.p12 -nodes | openssl pkcs12 -export -out new.p12"
        case .passwordVariableMissing: return "export the variable before running, or use another password source"
        case .passwordFileUnreadable: return "check the path and the file's permissions"
        case .noTerminalForPrompt: return "run interactively, or give the password from an environment variable or a file"
        case .openSSL: return "the file may be damaged; try opening it with the openssl command"
        }
    }

    private static func format(_ date: Date) -> String {
        UTCTime.iso8601(date)
    }
}
