import COpenSSL
import Foundation
import MirrorCore

/// Does a certificate name a host? (`X509_check_host` for names, `X509_check_ip_asc` for IP literals.)
enum HostnameValidation {
    /// Whether `certificate` is valid for `host`.
    ///
    /// The host is compared in its ``MirrorCore/HostName`` form (lower case, no IPv6 brackets
    /// or trailing dot, IDNA A-labels, as certificates carry them). IP literals match only IP SANs.
    static func matches(_ certificate: CertificateInfo, host: String) -> Bool {
        guard let x509 = try? certificate.makeX509() else { return false }
        guard let name = HostName.canonical(host) else { return false }
        let result: Int32
        if isIPLiteral(name) {
            result = X509_check_ip_asc(x509.pointer, name, 0)
        } else {
            result = X509_check_host(x509.pointer, name, name.utf8.count, 0, nil)
        }
        _ = OpenSSLErrorQueue.drain()
        return result == 1
    }


    /// Whether `name` is an IPv4 or IPv6 address literal (`inet_pton`).
    static func isIPLiteral(_ name: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, name, &buffer) == 1 || inet_pton(AF_INET6, name, &buffer) == 1
    }
}
