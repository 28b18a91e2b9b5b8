import Foundation
import MirrorCore
import MirrorTLS

/// What `inspect` found, for text or JSON output.
struct InspectReport: Encodable {
    struct Certificate: Encodable {
        var subject: String
        var issuer: String
        var notBefore: Date
        var notAfter: Date
        var subjectAlternativeNames: [String]
        var sha256: String
        var pin: String
        init(_ info: CertificateInfo) {
            subject = info.subject
            issuer = info.issuer
            notBefore = info.notBefore
            notAfter = info.notAfter
            subjectAlternativeNames = info.subjectAlternativeNames
            sha256 = info.sha256
            pin = info.pin
        }
    }
    struct Verdict: Encodable {
        var evaluator: String
        var configured: Bool
        var passed: Bool
        var detail: String
        /// The anchor the chain verified to (default policies), and where it came from.
        var anchor: VerifiedAnchor?
    }
    struct Identity: Encodable {
        var subject: String
        var issuer: String
        var notAfter: Date
        var chainCertificates: Int
        var warning: String?
        /// The token, key and certificate source, for a key on a PKCS#11 token.
        var token: TokenKeyInfo?
        init(_ leaf: CertificateInfo, chainLength: Int, warning: String?, token: TokenKeyInfo? = nil) {
            self.token = token
            subject = leaf.subject
            issuer = leaf.issuer
            notAfter = leaf.notAfter
            chainCertificates = chainLength
            self.warning = warning
        }
    }

    var url: String
    var chain: [Certificate] = []
    var verdicts: [Verdict] = []
    var policyPassed: Bool?
    var clientIdentity: Identity?
    var clientIdentityError: String?
    var clientAccepted: Bool?
    var httpStatus: Int?
    var tlsVersion: String?
    var cipher: String?
    var alpn: String?
    var notes: [String] = []
    var error: String?

    var text: String {
        var lines = ["Server \(url)"]
        if let tlsVersion { lines.append("  TLS: \(tlsVersion), cipher \(cipher ?? "?"), ALPN \(alpn ?? "none")") }
        lines.append("")
        lines.append("Certificate chain (as presented, leaf first):")
        for (index, cert) in chain.enumerated() {
            lines.append("  [\(index)] subject: \(cert.subject)")
            lines.append("      issuer:  \(cert.issuer)")
            lines.append("      valid:   \(UTCTime.iso8601(cert.notBefore)) to \(UTCTime.iso8601(cert.notAfter))")
            if !cert.subjectAlternativeNames.isEmpty { lines.append("      names:   \(cert.subjectAlternativeNames.joined(separator: ", "))") }
            lines.append("      sha256:  \(cert.sha256)")
            lines.append("      pin:     \(cert.pin)")
        }
        if !chain.isEmpty {
            lines.append("")
            lines.append("  Paste: --pinnedpubkey '\(chain[0].pin)'")
        }
        lines.append("")
        lines.append("Trust verdicts:")
        for verdict in verdicts {
            lines.append("  \(verdict.passed ? "PASS" : "FAIL")  \(verdict.evaluator)\(verdict.passed ? "" : ": \(verdict.detail)")")
            if let anchor = verdict.anchor { lines.append("        anchor: \(anchor.summary)") }
        }
        if let policyPassed { lines.append("  => policy \(policyPassed ? "passed" : "FAILED")") }
        lines.append("")
        lines.append("Client identity:")
        if let identity = clientIdentity {
            lines.append("  subject: \(identity.subject)")
            lines.append("  issuer:  \(identity.issuer)")
            lines.append("  expires: \(UTCTime.iso8601(identity.notAfter)) (\(identity.chainCertificates) chain certificate(s) sent along)")
            if let token = identity.token {
                lines.append("  token:   '\(token.tokenLabel)' (\(token.manufacturer) \(token.model), serial \(token.serial), slot \(token.slotID))")
                lines.append("  key:     \(token.keyLabel.map { "'\($0)'" } ?? "(no label)")\(token.keyID.map { " id \($0)" } ?? ""), on the token (never leaves it)")
                lines.append("  cert:    from \(token.certificateSource)")
                lines.append("  module:  \(token.module)")
            }
            if let warning = identity.warning { lines.append("  warning: \(warning)") }
            switch clientAccepted {
            case true?: lines.append("  accepted by the server (HTTP \(httpStatus.map(String.init) ?? "?"))")
            case false?: lines.append("  REJECTED by the server")
            case nil: lines.append("  not sent")
            }
        } else if let clientIdentityError {
            lines.append("  ERROR: \(clientIdentityError)")
        } else {
            lines.append("  none given (--cert FILE)")
        }
        for note in notes { lines.append("Note: \(note)") }
        if let error { lines.append("Error: \(error)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
