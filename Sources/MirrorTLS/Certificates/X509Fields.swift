import CMirrorShims
import COpenSSL
import Foundation

/// Pure readers of individual `X509` fields, used by ``CertificateInfo``.
enum X509Fields {
    /// A name in RFC 2253 one-line form (`X509_NAME_print_ex` with `XN_FLAG_RFC2253`).
    static func name(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        return BIOText.capture { bio in
            _ = X509_NAME_print_ex(bio, name, 0, CMirrorShims_XN_FLAG_RFC2253())
        }
    }

    /// The serial number in upper-case hexadecimal.
    static func serial(_ x509: OpaquePointer) -> String {
        guard let integer = X509_get0_serialNumber(x509), let bignum = ASN1_INTEGER_to_BN(integer, nil) else { return "" }
        defer { BN_free(bignum) }
        guard let hex = BN_bn2hex(bignum) else { return "" }
        defer { CMirrorShims_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    /// An ASN.1 time as a `Date` (`ASN1_TIME_to_tm`, then `timegm`).
    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The DER SubjectPublicKeyInfo of the certificate's key, as the certificate holds it
    /// (`i2d_X509_PUBKEY`, as curl's `--pinnedpubkey` takes it). `i2d_PUBKEY` of the parsed
    /// key gives the same bytes, but through OpenSSL 3's encoder lookup: thousands of
    /// allocations per call, for every certificate of every handshake.
    static func spkiDER(_ x509: OpaquePointer) -> [UInt8]? {
        guard let key = X509_get_X509_PUBKEY(x509) else { return nil }
        let length = i2d_X509_PUBKEY(key, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509_PUBKEY(key, &cursor)
        }
        return written == length ? bytes : nil
    }

    /// The subject alternative names as `TYPE:value` strings.
    static func subjectAlternativeNames(_ x509: OpaquePointer) -> [String] {
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return [] }
        let names = OpaquePointer(raw)
        defer { CMirrorShims_GENERAL_NAMES_free(names) }
        var result: [String] = []
        for index in 0..<max(CMirrorShims_sk_GENERAL_NAME_num(names), 0) {
            guard let entry = CMirrorShims_sk_GENERAL_NAME_value(names, index) else { continue }
            if let text = describe(entry.pointee) { result.append(text) }
        }
        return result
    }

    private static func describe(_ name: GENERAL_NAME) -> String? {
        switch name.type {
        case GEN_DNS: return string(name.d.dNSName).map { "DNS:" + $0 }
        case GEN_EMAIL: return string(name.d.rfc822Name).map { "email:" + $0 }
        case GEN_URI: return string(name.d.uniformResourceIdentifier).map { "URI:" + $0 }
        case GEN_IPADD: return bytes(name.d.iPAddress).flatMap(ipText).map { "IP:" + $0 }
        default: return nil
        }
    }

    private static func bytes(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8]? {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    private static func string(_ value: UnsafeMutablePointer<ASN1_STRING>?) -> String? {
        bytes(value).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Text form of a 4- or 16-byte address (`inet_ntop`).
    static func ipText(_ address: [UInt8]) -> String? {
        let family: Int32
        switch address.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: 64)
        let ok = address.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard ok != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
