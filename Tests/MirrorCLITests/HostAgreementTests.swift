import MirrorCLI
import MirrorCore
import MirrorCrawler
import MirrorHTTP
import MirrorTLS
import Testing

/// Who receives the client certificate, which trust policy applies and where requisites may
/// come from are decided by one ``HostPattern``: the same patterns must give the same answer
/// in the identity scope, the trust manager, the config's trust table and the crawl scope, for
/// every host of a suite of spellings. A disagreement here would be a security hole (the
/// identity sent where no policy was meant to apply, or the reverse).
@Suite("Identity scope, trust table and crawl scope agree")
struct HostAgreementTests {
    static let patterns = ["intranet.example", "*.corp.example", "bücher.example", "*.xn--mnchen-3ya.example", "10.0.0.7", "[fd00::7]"]

    static let hosts = [
        "intranet.example", "INTRANET.example.", "www.intranet.example", "xintranet.example",
        "corp.example", "a.corp.example", "A.B.CORP.EXAMPLE", "corp.example.evil.net", "acorp.example",
        "bücher.example", "xn--bcher-kva.example", "BÜCHER.EXAMPLE.", "büchers.example",
        "münchen.example", "www.münchen.example", "www.xn--mnchen-3ya.example",
        "10.0.0.7", "10.0.0.70", "[fd00::7]", "fd00::7", "[fd00::8]", "", ".", "example",
    ]

    @Test func everyDecisionAgreesOnEveryHost() throws {
        let scope = HostScope(Self.patterns)
        #expect(scope.patterns.count == Self.patterns.count, "a pattern was dropped: \(scope.patterns)")
        let manager = ServerTrustManager(evaluators: Self.patterns.map { ($0, DefaultTrustEvaluator()) })
        let config = TrustConfig(defaultPolicy: nil, hosts: Self.patterns.map {
            TrustConfig.HostPolicy(pattern: $0, policy: .systemDefault)
        })
        var crawl = ScopeConfiguration()
        crawl.requisiteHosts = Self.patterns
        let crawlScope = try CrawlScope(startURLs: [try #require(WebURL("https://start.example/"))], configuration: crawl)
        var agreed = 0
        for host in Self.hosts {
            let inScope = scope.contains(host: host, port: 443)
            let trusted = (try? manager.evaluator(forHost: host)) != nil
            let configured = config.policy(forHost: host) != nil
            #expect(inScope == trusted && trusted == configured, "\(host): scope \(inScope), manager \(trusted), config \(configured)")
            if let url = WebURL("https://\(host)/x.png") {
                let requisite = crawlScope.classify(url, isRequisite: true, depth: 0) == .requisite
                #expect(requisite == inScope, "\(host): crawl scope \(requisite), identity scope \(inScope)")
            }
            if inScope { agreed += 1 }
        }
        // The suite holds hosts on both sides.
        #expect(agreed == 12, "\(agreed) hosts matched")
    }
}
