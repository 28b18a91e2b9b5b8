import Foundation

/// What one generated certificate says: subject, role, validity and the X.509 v3 extensions
/// that follow from the role.
///
/// A plain value with no OpenSSL in it, so that the policy (which extensions a CA, a server or a
/// client certificate gets) can be read and tested apart from the code that signs.
/// ``CertificateIssuer`` turns it into a signed certificate.
struct CertificateTemplate: Sendable, Equatable {
    /// What the certificate is for.
    enum Role: Sendable, Equatable {
        /// A CA that signs end-entity certificates directly (`pathlen:0`).
        case certificateAuthority
        /// A TLS server certificate for these host names and IP addresses.
        case server(names: [String])
        /// A TLS client certificate.
        case client
    }

    /// The subject's common name (CN).
    var commonName: String
    /// The subject's organisation (O).
    var organization: String
    /// The role, which decides the extensions.
    var role: Role
    /// Start of validity.
    var notBefore: Date
    /// End of validity.
    var notAfter: Date

    /// The extensions as OpenSSL configuration values (`X509V3_EXT_conf_nid` input), keyed by
    /// short name, in the order they must be added: the subject key identifier comes before
    /// the authority key identifier, which a self-signed CA derives from it.
    var extensions: [(name: String, value: String)] {
        var list: [(name: String, value: String)]
        switch role {
        case .certificateAuthority:
            list = [("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign")]
        case .server(let names):
            list = [("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
                    ("extendedKeyUsage", "serverAuth")]
            if !names.isEmpty { list.append(("subjectAltName", Self.subjectAltName(names))) }
        case .client:
            list = [("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
                    ("extendedKeyUsage", "clientAuth")]
        }
        return list + [("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always")]
    }

    /// `DNS:` for host names, `IP:` for IPv4 and IPv6 literals, joined with commas.
    static func subjectAltName(_ names: [String]) -> String {
        names.map { name in
            let isIP = name.contains(":") || (!name.isEmpty && name.allSatisfy { $0.isNumber || $0 == "." })
            return (isIP ? "IP:" : "DNS:") + name
        }.joined(separator: ",")
    }
}
