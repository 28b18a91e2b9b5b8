import Foundation
import Testing
@testable import MirrorTLS

/// ``ServerTrustEvaluating/prepare()`` and ``TLSWarmUp``: the trust anchors load before the
/// first handshake, and what that load finds is what the evaluation then decides.
@Suite struct TrustWarmUpTests {
    @Test func prepareLoadsTheAnchorsBeforeTheFirstEvaluation() throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        #expect(!evaluator.verifier.isLoaded, "nothing is loaded until asked")
        evaluator.prepare()
        #expect(evaluator.verifier.isLoaded)
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-chain.pem")) == nil)
        #expect(TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-wronghost-chain.pem")) != nil,
                "a prepared evaluator still refuses")
    }

    @Test func aFailureFoundByPrepareIsThrownByTheEvaluation() throws {
        let path = try TestPKI.path("no-such-root.pem")
        let evaluator = DefaultTrustEvaluator(anchors: .files([path]))
        evaluator.prepare()
        #expect(evaluator.verifier.isLoaded)
        let refusal = TrustFixtures.refusal(evaluator, try TrustFixtures.trust("server-chain.pem"))
        #expect(refusal == .unreadableFile(path: path, reason: "no such file"), "fails closed, as without prepare")
    }

    @Test func theManagerPreparesTheEvaluatorsOfTheGivenHostsOnly() throws {
        let forSite = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let fallback = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        let composite = CompositeTrustEvaluator([forSite])
        let manager = ServerTrustManager(evaluators: [(pattern: "intranet.example", evaluator: composite)], fallback: fallback)
        manager.prepare(hosts: ["intranet.example"])
        #expect(forSite.verifier.isLoaded, "the composite passes prepare on to its members")
        #expect(!fallback.verifier.isLoaded)
        manager.prepare(hosts: ["other.example"])
        #expect(fallback.verifier.isLoaded)
    }

    @Test func theWarmUpLoadsOnAThreadOfItsOwn() async throws {
        let evaluator = DefaultTrustEvaluator(anchors: try TrustFixtures.serverRoot())
        TLSWarmUp.start(trust: ServerTrustManager(fallback: evaluator), hosts: ["localhost"])
        for _ in 0..<200 where !evaluator.verifier.isLoaded { try await Task.sleep(for: .milliseconds(10)) }
        #expect(evaluator.verifier.isLoaded)
    }
}
