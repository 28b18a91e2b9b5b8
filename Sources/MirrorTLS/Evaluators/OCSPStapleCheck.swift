import CMirrorShims
import COpenSSL
import Foundation

/// Checks a stapled OCSP response (RFC 6960) for the leaf of a verified chain.
///
/// Steps: `d2i_OCSP_RESPONSE`, responder status successful, `OCSP_basic_verify` against the chain
/// and the anchor store, `OCSP_resp_find_status` for the leaf's certificate ID, and the
/// thisUpdate/nextUpdate window around the verification time (5 minutes of leeway).
struct OCSPStapleCheck {
    let policy: String
    let host: String

    private static let leeway: TimeInterval = 300

    func check(_ response: [UInt8], verifiedChain: [CertificateInfo], store: TrustStore, at time: Date) throws(TrustError) {
        guard verifiedChain.count >= 2 else { throw invalid("the chain has no issuer to check the response against") }
        let parsed: OpaquePointer? = response.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_OCSP_RESPONSE(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw invalid("not a DER OCSP response (\(OpenSSLErrorQueue.drainedText()))") }
        defer { OCSP_RESPONSE_free(parsed) }
        let status = OCSP_response_status(parsed)
        guard status == OCSP_RESPONSE_STATUS_SUCCESSFUL else { throw invalid("responder status \(status)") }
        guard let basic = OCSP_response_get1_basic(parsed) else {
            throw invalid("no basic response (\(OpenSSLErrorQueue.drainedText()))")
        }
        defer { OCSP_BASICRESP_free(basic) }
        let leaf = try verifiedChain[0].makeX509()
        let issuer = try verifiedChain[1].makeX509()
        var others: [X509Certificate] = []
        for info in verifiedChain.dropFirst() { others.append(try info.makeX509()) }
        let untrusted = X509Stack(others)
        guard OCSP_basic_verify(basic, untrusted.pointer, store.pointer, 0) == 1 else {
            throw invalid("signature does not verify (\(OpenSSLErrorQueue.drainedText()))")
        }
        guard let certificateID = OCSP_cert_to_id(nil, leaf.pointer, issuer.pointer) else {
            throw invalid("cannot build the certificate ID (\(OpenSSLErrorQueue.drainedText()))")
        }
        defer { OCSP_CERTID_free(certificateID) }
        var certificateStatus: Int32 = -1
        var reason: Int32 = -1
        var revokedAt: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        guard OCSP_resp_find_status(basic, certificateID, &certificateStatus, &reason, &revokedAt, &thisUpdate, &nextUpdate) == 1 else {
            _ = OpenSSLErrorQueue.drain()
            throw invalid("the response does not cover the server's certificate")
        }
        try checkWindow(thisUpdate: thisUpdate, nextUpdate: nextUpdate, at: time)
        switch certificateStatus {
        case V_OCSP_CERTSTATUS_GOOD: return
        case V_OCSP_CERTSTATUS_REVOKED:
            throw .revoked(policy: policy, host: host, subject: verifiedChain[0].subject, source: "OCSP")
        default: throw invalid("certificate status unknown to the responder")
        }
    }

    private func checkWindow(thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?,
                             nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?, at time: Date) throws(TrustError) {
        guard let start = X509Fields.date(thisUpdate.map { UnsafePointer($0) }) else { throw invalid("no thisUpdate time") }
        if start.timeIntervalSince(time) > Self.leeway { throw invalid("thisUpdate lies in the future") }
        if let next = nextUpdate, let end = X509Fields.date(UnsafePointer(next)), time.timeIntervalSince(end) > Self.leeway {
            throw invalid("the response is stale (nextUpdate passed)")
        }
    }

    private func invalid(_ reason: String) -> TrustError {
        .ocspInvalid(policy: policy, host: host, reason: reason)
    }
}
