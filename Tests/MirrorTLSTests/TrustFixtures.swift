import Foundation
@testable import MirrorTLS

/// Builds ``ServerTrust`` values from the test PKI files.
enum TrustFixtures {
    /// The certificates of a PKI file.
    static func certificates(_ file: String) throws -> [CertificateInfo] {
        try CertificateInfo.loadPEMFile(TestPKI.path(file))
    }

    /// What a server sending the chain in `file` presents to a client connecting to `host`.
    static func trust(_ file: String, host: String = "localhost", at time: Date = Date()) throws -> ServerTrust {
        ServerTrust(host: host, port: 8443, chain: try certificates(file), verificationTime: time)
    }

    /// Anchors holding the server root CA.
    static func serverRoot() throws -> TrustAnchors { .files([try TestPKI.path("server-root.pem")]) }

    /// The refusal `evaluator` gives for `trust`, or nil when it accepts.
    static func refusal(_ evaluator: any ServerTrustEvaluating, _ trust: ServerTrust) -> TrustError? {
        do {
            try evaluator.evaluate(trust)
            return nil
        } catch {
            return error
        }
    }
}
