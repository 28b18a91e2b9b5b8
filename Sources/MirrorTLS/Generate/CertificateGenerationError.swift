import MirrorCore

/// Why a throwaway PKI (``DemoPKI``) could not be generated or written.
///
/// OpenSSL failures carry the name of the call and OpenSSL's own error text; file failures
/// carry the path and `strerror` text. No case carries a password.
public enum CertificateGenerationError: DiagnosableError, Equatable {
    /// `EVP_EC_gen` could not make a key on `curve`.
    case keyGenerationFailed(curve: String, detail: String)
    /// An OpenSSL call used to build, sign or encode a certificate or PKCS#12 file failed.
    case openSSL(operation: String, detail: String)
    /// The PKI folder could not be created, is not a folder, or could not be made private (0700).
    case directoryUnusable(path: String, reason: String)
    /// A generated file could not be written.
    case writeFailed(path: String, reason: String)

    public var category: ErrorCategory {
        switch self {
        case .keyGenerationFailed, .openSSL: .internal
        case .directoryUnusable, .writeFailed: .io
        }
    }

    public var summary: String {
        switch self {
        case let .keyGenerationFailed(curve, detail): "could not generate an EC \(curve) key: \(detail)"
        case let .openSSL(operation, detail): "OpenSSL \(operation) failed while generating certificates: \(detail)"
        case let .directoryUnusable(path, reason): "cannot use \(path) for the generated certificates: \(reason)"
        case let .writeFailed(path, reason): "cannot write \(path): \(reason)"
        }
    }

    public var hint: String {
        switch self {
        case .keyGenerationFailed, .openSSL: "check that OpenSSL 3 with its default provider is installed (openssl version)"
        case .directoryUnusable: "choose another output folder (-o DIR) or remove the existing one"
        case .writeFailed: "check free space and the folder's permissions"
        }
    }
}
