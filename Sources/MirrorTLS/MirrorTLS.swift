// TEMPORARY contract stub (replaced by the real MirrorTLS on merge).
import Foundation
import MirrorCore
public struct CertificateInfo: Sendable, Equatable { public var subject: String; public var issuer: String; public var notBefore: Date; public var notAfter: Date; public var sha256: String; public var spkiSHA256: String; public var pin: String { "sha256//" + spkiSHA256 }; public var subjectAlternativeNames: [String]; public var serialNumber: String; public var der: [UInt8] }
public struct ServerTrust: Sendable { public var host: String; public var port: Int; public var chain: [CertificateInfo]; public var stapledOCSPResponse: [UInt8]?; public var verificationTime: Date }
public enum TrustError: DiagnosableError, Sendable { case noEvaluatorForHost(host: String)
  public var category: ErrorCategory { .serverTrust }; public var summary: String { "x" }; public var hint: String { "" } }
public protocol ServerTrustEvaluating: Sendable { func evaluate(_ trust: ServerTrust) throws(TrustError); var name: String { get } }
public struct DefaultTrustEvaluator: ServerTrustEvaluating { public init() {}; public func evaluate(_ trust: ServerTrust) throws(TrustError) {}; public var name: String { "default" } }
public final class ServerTrustManager: Sendable { public init(evaluators: [(pattern: String, evaluator: any ServerTrustEvaluating)], allHostsMustBeEvaluated: Bool = true) {}
  public func evaluator(forHost: String) throws(TrustError) -> any ServerTrustEvaluating { DefaultTrustEvaluator() } }
public final class ClientIdentity: @unchecked Sendable { public var id: String { "" }; public var leaf: CertificateInfo { fatalError() } }
public final class TLSProfile: Sendable { public init(identity: ClientIdentity?, evaluator: any ServerTrustEvaluating) { self.identity = identity; self.evaluator = evaluator }
  public let identity: ClientIdentity?; public let evaluator: any ServerTrustEvaluating; public var id: String { "" }
  public func configure(sslContext: UnsafeMutableRawPointer, host: String, port: Int, outcome: HandshakeOutcome) -> Bool { true } }
public final class HandshakeOutcome: @unchecked Sendable { public init() {}
  public var serverTrust: ServerTrust? { nil }; public var trustError: TrustError? { nil }; public var tlsVersion: String? { nil }; public var cipher: String? { nil }; public var alpn: String? { nil } }
public enum CertificateType: String, Sendable { case p12 = "P12", pem = "PEM" }
public enum IdentityError: DiagnosableError, Sendable { case wrongPassword(file: String), passwordRequired(file: String)
  public var category: ErrorCategory { .clientIdentity }; public var summary: String { "x" }; public var hint: String { "" } }
extension ClientIdentity { public static func load(certificate: String, key: String? = nil, type: CertificateType? = nil, password: Secret? = nil, now: Date = Date()) throws(IdentityError) -> ClientIdentity { fatalError() }
  public var chain: [CertificateInfo] { [] }
  public func expiryWarning(now: Date = Date(), withinDays: Int = 30) -> String? { nil } }
extension CertificateInfo { public static func loadPEMFile(_ path: String) throws -> [CertificateInfo] { [] } }
public enum TrustAnchors: Sendable { case system, files([String]), certificates([CertificateInfo]) }
public enum PasswordSource: Sendable { case environment(String), file(String), prompt, literal(Secret)
  public func resolve(forFile: String) throws(IdentityError) -> Secret { Secret("") } }
public struct RevocationTrustEvaluator: ServerTrustEvaluating { public init(crlFiles: [String], anchors: TrustAnchors = .system, validateHost: Bool = true) {}; public func evaluate(_ trust: ServerTrust) throws(TrustError) {}; public var name: String { "revocation" } }
public struct PinnedCertificatesTrustEvaluator: ServerTrustEvaluating { public init(certificates: [CertificateInfo], requireChain: Bool = false, anchors: TrustAnchors = .system, validateHost: Bool = true) {}; public func evaluate(_ trust: ServerTrust) throws(TrustError) {}; public var name: String { "pinnedCertificates" } }
public struct PublicKeysTrustEvaluator: ServerTrustEvaluating { public init(pins: [String], requireChain: Bool = false, anchors: TrustAnchors = .system, validateHost: Bool = true) {}; public func evaluate(_ trust: ServerTrust) throws(TrustError) {}; public var name: String { "publicKeys" }
  public static func parsePins(_ curlStyle: String) throws(TrustError) -> [String] { [] } }
public struct CompositeTrustEvaluator: ServerTrustEvaluating { public init(_ e: [any ServerTrustEvaluating]) {}; public func evaluate(_ trust: ServerTrust) throws(TrustError) {}; public var name: String { "composite" } }
public struct DisabledTrustEvaluator: ServerTrustEvaluating { public init() {}; public func evaluate(_ trust: ServerTrust) throws(TrustError) {}; public var name: String { "disabled" } }
extension DefaultTrustEvaluator { public init(anchors: TrustAnchors = .system, validateHost: Bool = true) { self.init() } }
