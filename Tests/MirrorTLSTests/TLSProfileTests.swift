import COpenSSL
import Foundation
import MirrorCore
import Testing
@testable import MirrorTLS

@Suite struct TLSProfileTests {
    func identity() throws -> ClientIdentity {
        try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: Secret(TestPKI.password))
    }

    @Test func trustedServerCompletesTheHandshakeWithTheClientCertificate() throws {
        // Given a profile with the client identity and the server root as anchor
        let profile = TLSProfile(identity: try identity(), evaluator: DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot()))
        let handshake = try InMemoryHandshake()
        let outcome = HandshakeOutcome()
        #expect(profile.configure(sslContext: UnsafeMutableRawPointer(handshake.clientContext), host: "localhost", port: 8443, outcome: outcome))
        // When the handshake runs
        let completed = try handshake.run()
        // Then both sides complete, the server saw our certificate and the outcome records the server
        #expect(completed)
        #expect(outcome.trustError == nil)
        #expect(handshake.clientCertificateSubjectSeenByServer?.contains("CN=mirror-client-1") == true)
        let trust = try #require(outcome.serverTrust)
        #expect(trust.host == "localhost" && trust.port == 8443)
        #expect(trust.chain.map(\.subject) == ["CN=localhost", "CN=mtls-mirror test server intermediate CA"])
        #expect(trust.stapledOCSPResponse == nil)
        #expect(outcome.tlsVersion == "TLSv1.3")
        #expect(outcome.cipher?.isEmpty == false)
        #expect(outcome.alpn == nil)
    }

    @Test func refusedServerAbortsTheHandshakeAndRecordsWhy() throws {
        // Given a profile pinning another key
        let other = try #require(try TrustFixtures.certificates("server-selfsigned.pem").first)
        let profile = TLSProfile(identity: try identity(), evaluator: PublicKeysTrustEvaluator(pins: [other.pin]))
        let handshake = try InMemoryHandshake()
        let outcome = HandshakeOutcome()
        #expect(profile.configure(sslContext: UnsafeMutableRawPointer(handshake.clientContext), host: "localhost", port: 443, outcome: outcome))
        // When the handshake runs
        let completed = try handshake.run()
        // Then it fails on our side, before the client certificate was sent, with the evidence recorded
        #expect(!completed)
        guard case .publicKeyPinMismatch(policy: "public-keys", host: "localhost", _, _) = outcome.trustError else {
            Issue.record("got \(String(describing: outcome.trustError))")
            return
        }
        #expect(outcome.serverTrust?.chain.count == 2)
        #expect(handshake.clientCertificateSubjectSeenByServer == nil)
        let client = try #require(handshake.client)
        #expect(SSL_get_verify_result(client) == Int(X509_V_ERR_APPLICATION_VERIFICATION))
    }

    @Test func wrongHostIsRefusedDuringTheHandshake() throws {
        let profile = TLSProfile(identity: nil, evaluator: DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot()))
        let handshake = try InMemoryHandshake()
        let outcome = HandshakeOutcome()
        #expect(profile.configure(sslContext: UnsafeMutableRawPointer(handshake.clientContext), host: "mirror.example", port: 443, outcome: outcome))
        #expect(try handshake.run() == false)
        guard case .hostnameMismatch = outcome.trustError else {
            Issue.record("got \(String(describing: outcome.trustError))")
            return
        }
    }

    @Test func callbackContextLivesAsLongAsTheSSLContext() throws {
        weak var weakOutcome: HandshakeOutcome?
        var handshake: InMemoryHandshake? = try InMemoryHandshake()
        do {
            let outcome = HandshakeOutcome()
            weakOutcome = outcome
            let profile = TLSProfile(identity: nil, evaluator: DisabledTrustEvaluator())
            let context = try #require(handshake?.clientContext)
            #expect(profile.configure(sslContext: UnsafeMutableRawPointer(context), host: "localhost", port: 443, outcome: outcome))
            // configuring the same context twice must not leak the first context
            #expect(profile.configure(sslContext: UnsafeMutableRawPointer(context), host: "localhost", port: 443, outcome: outcome))
        }
        // The SSL_CTX keeps the outcome alive (the callback may still run) …
        #expect(weakOutcome != nil)
        #expect(try handshake?.run() == false)  // the server rejects us: no client certificate
        #expect(weakOutcome?.serverTrust?.host == "localhost")
        // … and freeing the SSL_CTX releases it.
        handshake = nil
        #expect(weakOutcome == nil)
    }
}

@Suite struct PasswordSourceTests {
    @Test func environmentVariableIsRead() throws {
        setenv("MTLS_MIRROR_TEST_PASSWORD", "from-the-env", 1)
        defer { unsetenv("MTLS_MIRROR_TEST_PASSWORD") }
        #expect(try PasswordSource.environment("MTLS_MIRROR_TEST_PASSWORD").resolve(forFile: "a.p12").reveal() == "from-the-env")
    }

    @Test func missingOrEmptyEnvironmentVariableNamesIt() {
        setenv("MTLS_MIRROR_TEST_EMPTY", "", 1)
        defer { unsetenv("MTLS_MIRROR_TEST_EMPTY") }
        for variable in ["MTLS_MIRROR_TEST_UNSET_VARIABLE", "MTLS_MIRROR_TEST_EMPTY"] {
            #expect(throws: IdentityError.passwordVariableMissing(variable: variable, file: "a.p12")) {
                try PasswordSource.environment(variable).resolve(forFile: "a.p12")
            }
        }
    }

    @Test func passwordFileGivesItsFirstLineAndOpensTheIdentity() throws {
        let secret = try PasswordSource.file(TestPKI.path("password.txt")).resolve(forFile: "client.p12")
        #expect(secret.reveal() == TestPKI.password)
        let identity = try ClientIdentity.load(certificate: TestPKI.path("client.p12"), password: secret)
        #expect(identity.leaf.subject.contains("mirror-client-1"))
    }

    @Test func unreadablePasswordFileIsNamed() throws {
        let path = try TestPKI.path("no-password-here.txt")
        #expect(throws: IdentityError.passwordFileUnreadable(path: path, file: "client.p12")) {
            try PasswordSource.file(path).resolve(forFile: "client.p12")
        }
    }

    @Test func promptWithoutATerminalFailsClearly() throws {
        // /dev/null is openable but not a terminal, like a cron job's standard input.
        #expect(throws: IdentityError.noTerminalForPrompt(file: "client.p12")) {
            try TerminalPrompt.readSecret(prompt: "Password: ", file: "client.p12", device: "/dev/null")
        }
        #expect(throws: IdentityError.noTerminalForPrompt(file: "client.p12")) {
            try TerminalPrompt.readSecret(prompt: "Password: ", file: "client.p12", device: "/nonexistent/tty")
        }
    }

    @Test func literalIsPassedThrough() throws {
        #expect(try PasswordSource.literal(Secret("x")).resolve(forFile: "f") == Secret("x"))
    }
}
