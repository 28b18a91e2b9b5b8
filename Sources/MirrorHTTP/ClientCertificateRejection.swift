/// Recognises a server's refusal of the client certificate.
///
/// Two shapes exist. A TLS alert during the handshake (TLS 1.2 servers, or TLS 1.3 servers that
/// abort after the client's Finished), which libcurl reports as an SSL error whose text names the
/// alert. And nginx's habit of completing the handshake and answering HTTP 400 with a fixed page.
enum ClientCertificateRejection {
    /// Alert names (as OpenSSL prints them) that mean "your certificate was refused".
    static let alertMarkers = [
        "alert certificate required", "alert bad certificate", "alert unknown ca",
        "alert certificate unknown", "alert certificate expired", "alert certificate revoked",
        "alert unsupported certificate", "alert access denied",
    ]

    /// nginx's 400 page titles for a missing or refused client certificate.
    static let nginxMarkers = [
        "No required SSL certificate was sent", "The SSL certificate error",
        "SSL certificate error",
    ]

    /// The rejection reason for an HTTP response, or nil when it is not one.
    static func detect(status: Int, body: [UInt8]) -> String? {
        guard status == 400 || status == 495 || status == 496 else { return nil }
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        if status == 496 { return "HTTP 496 (no certificate)" }
        if status == 495 { return "HTTP 495 (certificate error)" }
        for marker in nginxMarkers where text.contains(marker) {
            return "HTTP 400 \"\(marker)\""
        }
        return nil
    }

    /// The rejection reason for a TLS error message from libcurl, or nil when it is not one.
    static func detect(tlsMessage: String) -> String? {
        let lower = tlsMessage.lowercased()
        return alertMarkers.first { lower.contains($0) }.map { _ in tlsMessage }
    }
}
