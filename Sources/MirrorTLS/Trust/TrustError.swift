import COpenSSL
import MirrorCore

/// Why a server's certificate was not trusted, with the evidence.
///
/// Every case that comes from an evaluator names the policy (`policy`, the evaluator's
/// ``ServerTrustEvaluating/name``) and the host, so a one-line ``summary`` says which rule
/// refused which server and why.
public enum TrustError: DiagnosableError, Equatable {
    /// The chain does not verify against the trust anchors (OpenSSL `X509_verify_cert`).
    /// `code` is the `X509_V_ERR_*` value, `reason` its text, `depth` the failing position (0 = leaf).
    case chainInvalid(policy: String, host: String, code: Int32, reason: String, depth: Int32)
    /// The leaf names none of the host (`X509_check_host` / `X509_check_ip_asc`). `names` are its SANs.
    case hostnameMismatch(policy: String, host: String, names: [String])
    /// A certificate of the chain is revoked. `source` is "CRL" or "OCSP".
    case revoked(policy: String, host: String, subject: String, source: String)
    /// No presented certificate matches a pinned one (SHA-256 of the DER, hex).
    case certificatePinMismatch(policy: String, host: String, pinned: [String], presented: [String])
    /// No presented public key matches a pin (`sha256//base64` of the SPKI).
    case publicKeyPinMismatch(policy: String, host: String, pinned: [String], presented: [String])
    /// The server presented no certificate at all.
    case noCertificates(policy: String, host: String)
    /// The stapled OCSP response could not be parsed, verified, or does not cover the leaf.
    case ocspInvalid(policy: String, host: String, reason: String)
    /// No policy is configured for this host and every host must be evaluated.
    case noEvaluatorForHost(host: String)
    /// A pin string is malformed.
    case invalidPin(pin: String, reason: String)
    /// A trust-anchor, CRL or certificate file could not be read or parsed.
    case unreadableFile(path: String, reason: String)
    /// Bytes that should be one DER certificate are not.
    case invalidCertificate(reason: String)
    /// An OpenSSL call failed for a reason other than the certificates themselves.
    case openSSL(operation: String, detail: String)

    public var category: ErrorCategory { .serverTrust }

    public var summary: String {
        switch self {
        case let .chainInvalid(policy, host, code, reason, depth):
            return "trust policy '\(policy)' refused \(host): certificate chain invalid at depth \(depth): \(reason) (X509 error \(code))"
        case let .hostnameMismatch(policy, host, names):
            let shown = names.isEmpty ? "no subject alternative names" : names.joined(separator: ", ")
            return "trust policy '\(policy)' refused \(host): the certificate is for \(shown)"
        case let .revoked(policy, host, subject, source):
            return "trust policy '\(policy)' refused \(host): certificate '\(subject)' is revoked (\(source))"
        case let .certificatePinMismatch(policy, host, pinned, presented):
            return "trust policy '\(policy)' refused \(host): no presented certificate matches a pinned one "
                + "(pinned SHA-256: \(pinned.joined(separator: ", ")); presented: \(presented.joined(separator: ", ")))"
        case let .publicKeyPinMismatch(policy, host, pinned, presented):
            return "trust policy '\(policy)' refused \(host): no presented public key matches a pin "
                + "(pinned: \(pinned.joined(separator: ", ")); presented: \(presented.joined(separator: ", ")))"
        case let .noCertificates(policy, host):
            return "trust policy '\(policy)' refused \(host): the server presented no certificate"
        case let .ocspInvalid(policy, host, reason):
            return "trust policy '\(policy)' refused \(host): stapled OCSP response invalid: \(reason)"
        case let .noEvaluatorForHost(host):
            return "no trust policy is configured for host \(host)"
        case let .invalidPin(pin, reason):
            return "invalid public-key pin '\(pin)': \(reason)"
        case let .unreadableFile(path, reason):
            return "cannot read trust file \(path): \(reason)"
        case let .invalidCertificate(reason):
            return "invalid certificate: \(reason)"
        case let .openSSL(operation, detail):
            return "OpenSSL \(operation) failed: \(detail)"
        }
    }

    /// Whether the chain failed because no trusted CA issued it (not a date, not a missing
    /// CRL): the caller names its own way to trust that CA.
    public var isUnknownIssuer: Bool {
        guard case let .chainInvalid(_, _, code, _, _) = self else { return false }
        return code != X509_V_ERR_CERT_HAS_EXPIRED && code != X509_V_ERR_CERT_NOT_YET_VALID && code != X509_V_ERR_UNABLE_TO_GET_CRL
    }

    public var hint: String {
        switch self {
        case let .chainInvalid(_, _, code, _, _):
            switch code {
            case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
                return "check the server's certificate dates and this machine's clock"
            case X509_V_ERR_UNABLE_TO_GET_CRL:
                return "pass a CRL file for every CA of the chain, or drop the revocation policy"
            default:
                return "trust the CA that issued the server's certificate; "
                    + "run `mtls-mirror inspect URL` to see the chain the server sends"
            }
        case .hostnameMismatch:
            return "use the host name the certificate was issued for, or run `mtls-mirror inspect URL` to see its names"
        case .revoked:
            return "the server's certificate was revoked by its CA; the server operator must replace it"
        case .certificatePinMismatch, .publicKeyPinMismatch:
            return "the server's certificate or key changed; run `mtls-mirror inspect URL` to see the server's pins"
        case .noCertificates:
            return "the server is not speaking TLS with certificates; check the URL and port"
        case .ocspInvalid:
            return "the server's stapled OCSP response is bad; ask the operator, or drop the revocation policy"
        case .noEvaluatorForHost:
            return "add a trust policy for this host (or a matching *.domain pattern) to the configuration"
        case .invalidPin:
            return "pins look like sha256//BASE64 (44 characters of base64); separate several with ';'"
        case .unreadableFile:
            return "check the path and that the file holds PEM or DER certificates/CRLs"
        case .invalidCertificate:
            return "the data is not a DER X.509 certificate"
        case .openSSL:
            return "this is unexpected; please report it with the message above"
        }
    }
}
