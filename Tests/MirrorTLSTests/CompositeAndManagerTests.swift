import Foundation
import Testing
@testable import MirrorTLS

/// A policy that refuses everything, naming itself.
struct RefusingEvaluator: ServerTrustEvaluating {
    var name: String
    func evaluate(_ trust: ServerTrust) throws(TrustError) {
        throw .hostnameMismatch(policy: name, host: trust.host, names: [])
    }
}

@Suite struct CompositeTrustEvaluatorTests {
    @Test func passesWhenEveryMemberPasses() throws {
        let leaf = try #require(try TrustFixtures.certificates("server.pem").first)
        let composite = CompositeTrustEvaluator([
            DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot()), PublicKeysTrustEvaluator(pins: [leaf.pin]),
        ])
        #expect(TrustFixtures.refusal(composite, try TrustFixtures.trust("server-chain.pem")) == nil)
        #expect(composite.name == "composite(default, public-keys)")
    }

    @Test func failsWhenAnyMemberFailsAndNamesIt() throws {
        let other = try #require(try TrustFixtures.certificates("server-selfsigned.pem").first)
        let composite = CompositeTrustEvaluator([
            DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot()), PublicKeysTrustEvaluator(pins: [other.pin]),
        ])
        let refusal = TrustFixtures.refusal(composite, try TrustFixtures.trust("server-chain.pem"))
        guard case let .publicKeyPinMismatch(policy, _, _, _) = refusal else {
            Issue.record("got \(String(describing: refusal))")
            return
        }
        #expect(policy == "public-keys")
        #expect(refusal?.summary.contains("'public-keys'") == true)
    }

    @Test func emptyCompositeFailsClosed() throws {
        #expect(TrustFixtures.refusal(CompositeTrustEvaluator([]), try TrustFixtures.trust("server-chain.pem")) != nil)
    }

    @Test func disabledAcceptsEvenASelfSignedWrongHost() throws {
        let disabled = DisabledTrustEvaluator()
        #expect(disabled.name == "disabled")
        #expect(TrustFixtures.refusal(disabled, try TrustFixtures.trust("server-selfsigned.pem", host: "x.invalid")) == nil)
    }
}

@Suite struct ServerTrustManagerTests {
    let manager = ServerTrustManager(evaluators: [
        (pattern: "api.example.com", evaluator: RefusingEvaluator(name: "exact-api")),
        (pattern: "*.example.com", evaluator: RefusingEvaluator(name: "wild-example")),
        (pattern: "*.eu.example.com", evaluator: RefusingEvaluator(name: "wild-eu")),
        (pattern: "LocalHost.", evaluator: RefusingEvaluator(name: "exact-localhost")),
        (pattern: "::1", evaluator: RefusingEvaluator(name: "exact-ipv6")),
    ])

    @Test(arguments: [
        ("api.example.com", "exact-api"),
        ("API.Example.COM.", "exact-api"),
        ("www.example.com", "wild-example"),
        ("a.b.example.com", "wild-example"),
        ("cdn.eu.example.com", "wild-eu"),
        ("localhost", "exact-localhost"),
        ("[::1]", "exact-ipv6"),
    ])
    func hostFindsItsPolicy(host: String, expected: String) throws {
        #expect(try manager.evaluator(forHost: host).name == expected)
    }

    @Test(arguments: ["example.com", "eu.example.com.evil.org", "notexample.com", "127.0.0.1", ""])
    func unknownHostFailsClosed(host: String) {
        #expect(throws: TrustError.noEvaluatorForHost(host: host)) { try manager.evaluator(forHost: host) }
    }

    @Test func unknownHostGetsTheDefaultPolicyWhenAllowed() throws {
        let lenient = ServerTrustManager(
            evaluators: [(pattern: "*.example.com", evaluator: RefusingEvaluator(name: "wild"))],
            allHostsMustBeEvaluated: false)
        #expect(try lenient.evaluator(forHost: "other.org").name == "default")
        #expect(try lenient.evaluator(forHost: "a.example.com").name == "wild")
    }
}
