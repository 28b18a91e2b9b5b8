import Foundation

/// What a server presented during the TLS handshake, as plain values.
///
/// Unlike Apple's `SecTrust`, this works on Linux and in tests: evaluators get the host, the DER
/// chain exactly as sent (leaf first), an optional stapled OCSP response and the time to judge
/// validity at. Build one from PEM files in tests, or from the handshake in ``TLSProfile``.
public struct ServerTrust: Sendable, Equatable {
    /// The host name or IP literal the client connected to (as in the URL, brackets allowed for IPv6).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The certificates as presented by the server, leaf first.
    public var chain: [CertificateInfo]
    /// The DER OCSP response the server stapled (RFC 6066 status_request), if any.
    public var stapledOCSPResponse: [UInt8]?
    /// The time at which certificate validity is judged.
    public var verificationTime: Date

    /// Creates a trust value.
    ///
    /// - Parameters:
    ///   - host: the host name or IP literal.
    ///   - port: the TCP port.
    ///   - chain: the presented certificates, leaf first.
    ///   - stapledOCSPResponse: the stapled DER OCSP response, if any.
    ///   - verificationTime: when to judge validity; now by default.
    public init(host: String, port: Int = 443, chain: [CertificateInfo],
                stapledOCSPResponse: [UInt8]? = nil, verificationTime: Date = Date()) {
        self.host = host
        self.port = port
        self.chain = chain
        self.stapledOCSPResponse = stapledOCSPResponse
        self.verificationTime = verificationTime
    }

    /// The leaf (server) certificate.
    public var leaf: CertificateInfo? { chain.first }
}

/// A server-trust policy: decides whether a presented ``ServerTrust`` is acceptable.
///
/// Implementations are small, immutable and fail closed: anything unexpected is a refusal.
public protocol ServerTrustEvaluating: Sendable {
    /// Accepts the trust by returning, or refuses it by throwing.
    ///
    /// - Parameter trust: what the server presented.
    /// - Throws: a ``TrustError`` naming this policy, the host and the evidence.
    func evaluate(_ trust: ServerTrust) throws(TrustError)

    /// A short name for messages and connection-pool keys (`default`, `revocation`, …).
    var name: String { get }

    /// Does now what the first evaluation would otherwise do inside the first handshake:
    /// loads the trust anchors and CRLs (``TLSWarmUp``). A failure is kept and thrown by that
    /// evaluation, as it would have been.
    func prepare()
}

extension ServerTrustEvaluating {
    /// Nothing to load: the default for evaluators that hold everything from the start.
    public func prepare() {}
}
