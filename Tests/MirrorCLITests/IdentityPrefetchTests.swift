import Foundation
import MirrorCore
import MirrorTLS
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// The client identity read ahead on a thread of its own (issue #27): the outcome goes to the
/// request that started it, once, and is what reading it in place would have given, errors
/// included. The command line's own behaviour is checked end to end with the built binary.
@Suite struct IdentityPrefetchTests {
    func request(_ pki: TestPKI, file: String = "client.p12", password: PasswordSource?) -> IdentityPrefetch.Request {
        IdentityPrefetch.Request(certificate: pki.path(file), key: nil, type: nil, password: password)
    }

    @Test func theStartedRequestGetsTheIdentityOnce() throws {
        let pki = try TestPKI.shared()
        let prefetch = IdentityPrefetch()
        let asked = request(pki, password: .literal(Secret(pki.password)))
        prefetch.start(asked)
        let identity = try #require(prefetch.take(asked)).get()
        #expect(identity.leaf.subject.contains("mirror-client-1"))
        #expect(prefetch.take(asked) == nil)
    }

    @Test func anotherRequestGetsNothingAndDoesNotWait() throws {
        let pki = try TestPKI.shared()
        let prefetch = IdentityPrefetch()
        prefetch.start(request(pki, password: .literal(Secret(pki.password))))
        #expect(prefetch.take(request(pki, file: "client2.p12", password: .literal(Secret(pki.password)))) == nil)
        #expect(prefetch.take(request(pki, password: .environment("SOME_OTHER_VARIABLE"))) == nil)
        // The started request's outcome is still there for it.
        #expect(try prefetch.take(request(pki, password: .literal(Secret(pki.password))))?.get() != nil)
    }

    @Test func nothingWasStartedNothingIsTaken() throws {
        let pki = try TestPKI.shared()
        #expect(IdentityPrefetch().take(request(pki, password: nil)) == nil)
    }

    @Test func onlyTheFirstRequestStarts() throws {
        let pki = try TestPKI.shared()
        let prefetch = IdentityPrefetch()
        let first = request(pki, password: .literal(Secret(pki.password)))
        let second = request(pki, file: "client2.p12", password: .literal(Secret(pki.password)))
        prefetch.start(first)
        prefetch.start(second)
        #expect(prefetch.take(second) == nil)
        #expect(try prefetch.take(first)?.get() != nil)
    }

    @Test func aPromptIsNeverReadAhead() throws {
        let pki = try TestPKI.shared()
        let prefetch = IdentityPrefetch()
        let prompted = request(pki, password: .prompt)
        prefetch.start(prompted)
        #expect(prefetch.take(prompted) == nil)
    }

    @Test func errorsAreTheOnesAReadInPlaceGives() throws {
        let pki = try TestPKI.shared()
        let cases: [(IdentityPrefetch.Request, IdentityError)] = [
            (request(pki, password: .literal(Secret("not-the-password"))), .wrongPassword(file: pki.path("client.p12"))),
            (request(pki, password: nil), .passwordRequired(file: pki.path("client.p12"))),
            (request(pki, password: .environment("MTLS_MIRROR_PREFETCH_UNSET_VARIABLE")),
             .passwordVariableMissing(variable: "MTLS_MIRROR_PREFETCH_UNSET_VARIABLE", file: pki.path("client.p12"))),
            (request(pki, file: "garbage.p12", password: .literal(Secret(pki.password))),
             .unrecognizedFormat(file: pki.path("garbage.p12"))),
        ]
        for (asked, expected) in cases {
            let prefetch = IdentityPrefetch()
            prefetch.start(asked)
            let outcome = try #require(prefetch.take(asked))
            #expect(throws: expected) { try outcome.get() }
            // The same request read in place fails the same way.
            #expect(throws: expected) {
                _ = try ClientIdentity.load(certificate: asked.certificate, key: asked.key, type: asked.type,
                                            password: try asked.password?.resolve(forFile: asked.certificate))
            }
        }
    }

    @Test func theOptionsNameWhatMayBeReadAhead() throws {
        func options(_ arguments: [String]) throws -> TLSOptions {
            try TLSOptions(ArgumentParser.parse(["https://h/"] + arguments, spec: MirrorCommand.spec))
        }
        #expect(try options([]).prefetchRequest == nil)
        #expect(try options(["--cert", "pkcs11:token=t;object=o"]).prefetchRequest == nil)
        #expect(try options(["--cert", "me.pem", "--key", "pkcs11:token=t;object=o"]).prefetchRequest == nil)
        #expect(try options(["--cert", "me.p12", "--pass-env", "P"]).prefetchRequest
            == IdentityPrefetch.Request(certificate: "me.p12", key: nil, type: nil, password: .environment("P")))
        #expect(try options(["--cert", "me.pem", "--key", "me.key", "--cert-type", "PEM", "--pass-file", "pw"]).prefetchRequest
            == IdentityPrefetch.Request(certificate: "me.pem", key: "me.key", type: .pem, password: .file("pw")))
    }
}

/// `mirror URL --cert …` with an identity that cannot be used: the identity is read ahead, and
/// the command still fails with its error, exit code 3, before any connection or folder is made.
@Suite struct IdentityPrefetchCommandTests {
    let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))

    @Test func unusableIdentitiesFailAsBefore() throws {
        let pki = try TestPKI.shared()
        let variable = "MTLS_MIRROR_PREFETCH_TEST_PASSWORD"
        let cases: [(arguments: [String], environment: [String: String], message: String)] = [
            (["--cert", pki.path("client.p12"), "--pass-env", variable], [variable: "not-the-password"],
             "wrong password for client identity \(pki.path("client.p12"))"),
            (["--cert", pki.path("client.p12"), "--pass-env", variable], [:],
             "environment variable \(variable) (password for \(pki.path("client.p12"))) is not set or empty"),
            (["--cert", pki.path("client.p12")], [:], "is encrypted and no password was given"),
            (["--cert", pki.path("client-expired.p12"), "--pass-env", variable], [variable: pki.password], "expired on"),
            (["--cert", pki.path("garbage.p12"), "--pass-env", variable], [variable: pki.password], "is neither PKCS#12 nor PEM"),
            (["--cert", pki.path("client.pem"), "--key", pki.path("client2.key")], [:], "does not belong to the certificate"),
        ]
        for (arguments, environment, message) in cases {
            let output = try TemporaryDirectory()
            // Port 9 (discard) has no listener here: a connection would fail with exit code 7.
            let result = runner.run(
                ["mirror", "https://127.0.0.1:9/", "-o", output.path, "--name", "site",
                 "--cacert", pki.path("server-root.pem")] + arguments,
                environment: environment.merging(["NO_COLOR": "1"]) { a, _ in a }, timeout: 60)
            #expect(result.exitCode == 3, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains(pki.password))
            #expect(!FileManager.default.fileExists(atPath: output.url.appendingPathComponent("site").path))
        }
    }
}
