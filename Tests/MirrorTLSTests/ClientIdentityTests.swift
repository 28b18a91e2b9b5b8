import COpenSSL
import Foundation
import MirrorCore
import Testing
@testable import MirrorTLS

@Suite struct ClientIdentityTests {
    let secret = Secret(TestPKI.password)

    @Test func modernPKCS12LoadsWithItsChain() throws {
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: secret)
        #expect(identity.leaf.subject.contains("CN=mirror-client-1"))
        #expect(identity.chain.contains { $0.subject.contains("CN=mtls-mirror test client intermediate CA") })
        #expect(identity.chain.allSatisfy { $0.isCA })
        #expect(identity.leaf.sha256.count == 64)
    }

    @Test func legacyPKCS12LoadsWithTheLegacyProvider() throws {
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client-legacy.p12"), password: secret)
        let modern = try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: secret)
        #expect(identity.leaf.sha256 == modern.leaf.sha256)
        #expect(identity.chain.count == 1)
    }

    @Test func pemCertificateAndKeyLoad() throws {
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client-chain.pem"), key: TestPKI.path("client.key"))
        #expect(identity.leaf.subject.contains("CN=mirror-client-1"))
        #expect(identity.chain.count == 1)
        let p12 = try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: secret)
        #expect(identity.leaf.sha256 == p12.leaf.sha256)
    }

    @Test func encryptedPEMKeyLoadsWithItsPassword() throws {
        let identity = try ClientIdentity.load(
            certificate: TestPKI.path("client.pem"), key: TestPKI.path("client-enc.key"), password: secret)
        #expect(identity.leaf.subject.contains("CN=mirror-client-1"))
        #expect(identity.chain.isEmpty)
    }

    @Test func encryptedPEMKeyWithoutPasswordIsPasswordRequired() throws {
        let key = try TestPKI.path("client-enc.key")
        #expect(throws: IdentityError.passwordRequired(file: key)) {
            try ClientIdentity.load(certificate: TestPKI.path("client.pem"), key: key)
        }
    }

    @Test func combinedPEMHoldsKeyCertificateAndChain() throws {
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client-combined.pem"))
        #expect(identity.leaf.subject.contains("CN=mirror-client-1"))
        #expect(identity.chain.count == 1)
    }

    @Test(arguments: ["client.p12", "client-legacy.p12"])
    func wrongPKCS12PasswordIsWrongPassword(file: String) throws {
        let path = try TestPKI.path(file)
        #expect(throws: IdentityError.wrongPassword(file: path)) {
            try ClientIdentity.load(certificate: path, password: Secret("not-the-password"))
        }
    }

    @Test func pkcs12WithoutPasswordIsPasswordRequired() throws {
        let path = try TestPKI.path("client.p12")
        #expect(throws: IdentityError.passwordRequired(file: path)) { try ClientIdentity.load(certificate: path) }
    }

    @Test func wrongPEMKeyPasswordIsWrongPassword() throws {
        let key = try TestPKI.path("client-enc.key")
        #expect(throws: IdentityError.wrongPassword(file: key)) {
            try ClientIdentity.load(certificate: TestPKI.path("client.pem"), key: key, password: Secret("nope-nope"))
        }
    }

    @Test func garbageIsUnrecognizedFormat() throws {
        let path = try TestPKI.path("garbage.p12")
        #expect(throws: IdentityError.unrecognizedFormat(file: path)) {
            try ClientIdentity.load(certificate: path, type: .p12, password: secret)
        }
    }

    @Test func certificateWithoutKeyIsNoPrivateKey() throws {
        let path = try TestPKI.path("cert-only.pem")
        #expect(throws: IdentityError.noPrivateKey(file: path)) { try ClientIdentity.load(certificate: path) }
    }

    @Test func foreignKeyIsKeyMismatch() throws {
        let certificate = try TestPKI.path("client.pem")
        let key = try TestPKI.path("client2.key")
        #expect(throws: IdentityError.keyMismatch(certificate: certificate, key: key)) {
            try ClientIdentity.load(certificate: certificate, key: key)
        }
    }

    @Test func missingFileIsUnreadable() throws {
        let path = try TestPKI.path("does-not-exist.p12")
        #expect(throws: IdentityError.unreadable(file: path, reason: "no such file")) {
            try ClientIdentity.load(certificate: path, password: secret)
        }
    }

    @Test func expiredCertificateIsRejected() throws {
        let path = try TestPKI.path("client-expired.p12")
        do {
            _ = try ClientIdentity.load(certificate: path, password: secret)
            Issue.record("an expired identity loaded")
        } catch {
            guard case let .expired(file, subject, notAfter) = error else { Issue.record("got \(error)"); return }
            #expect(file == path)
            #expect(subject.contains("mirror-client-expired"))
            #expect(notAfter == Date(timeIntervalSince1970: 1_609_459_200))  // 2021-01-01T00:00:00Z
        }
        // Validity follows the injected clock: in 2020 the same file is fine.
        let identity = try ClientIdentity.load(
            certificate: path, password: secret, now: Date(timeIntervalSince1970: 1_600_000_000))
        #expect(identity.leaf.subject.contains("mirror-client-expired"))
    }

    @Test func notYetValidCertificateIsRejected() throws {
        let path = try TestPKI.path("client-notyet.pem")
        do {
            _ = try ClientIdentity.load(certificate: path, key: TestPKI.path("client-notyet.key"))
            Issue.record("a not-yet-valid identity loaded")
        } catch let error as IdentityError {
            guard case let .notYetValid(file, subject, _) = error else { Issue.record("got \(error)"); return }
            #expect(file == path)
            #expect(subject.contains("mirror-client-notyet"))
        }
    }

    @Test func expiryWarningOnlyForCertificatesExpiringSoon() throws {
        let expiring = try ClientIdentity.load(certificate: TestPKI.path("client-expiring.p12"), password: secret)
        let fresh = try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: secret)
        let warning = try #require(expiring.expiryWarning())
        #expect(warning.contains("mirror-client-expiring"))
        #expect(fresh.expiryWarning() == nil)
        #expect(expiring.expiryWarning(withinDays: 5) == nil)
    }

    @Test func noErrorMessageContainsThePassword() throws {
        let wrong = Secret("Leaky-Pa55word-42")
        var messages: [String] = []
        let attempts: [() throws -> ClientIdentity] = [
            { try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: wrong) },
            { try ClientIdentity.load(certificate: TestPKI.path("client-legacy.p12"), password: wrong) },
            { try ClientIdentity.load(certificate: TestPKI.path("client.pem"), key: TestPKI.path("client-enc.key"), password: wrong) },
            { try ClientIdentity.load(certificate: TestPKI.path("garbage.p12"), type: .p12, password: wrong) },
            { try ClientIdentity.load(certificate: TestPKI.path("client-expired.p12"), password: self.secret) },
            { try ClientIdentity.load(certificate: TestPKI.path("client.pem"), key: TestPKI.path("client2.key"), password: wrong) },
        ]
        for attempt in attempts {
            do {
                _ = try attempt()
                Issue.record("a failing load succeeded")
            } catch let error as IdentityError {
                messages.append(error.description + String(reflecting: error))
            }
        }
        #expect(messages.count == attempts.count)
        for message in messages {
            #expect(!message.contains("Leaky-Pa55word-42"))
            #expect(!message.contains(TestPKI.password))
        }
    }

    @Test func installsIntoARealSSLContext() throws {
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: secret)
        let context = try #require(SSL_CTX_new(TLS_client_method()))
        defer { SSL_CTX_free(context) }
        try identity.install(into: context)
        let installed = try #require(SSL_CTX_get0_certificate(context))
        #expect(X509Certificate(retaining: installed).der == identity.leaf.der)
    }
}
