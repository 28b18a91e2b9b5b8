import Foundation
import MirrorHTTP
import MirrorTestSupport
import Testing
@testable import MirrorCLI

/// The config keys of issue #26: `crawl` (sitemaps, politeness), `proxy`, `identity.module`
/// with `pkcs11:` URIs, and `"system": true` beside `cacert`.
@Suite struct EnterpriseConfigTests {
    @Test func crawlKeysBecomeTheJobsPolitenessAndSitemaps() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(ConfigFixture.site(
            #""crawl": {"sitemaps": true, "sitemapLastmod": true, "wait": "2s", "randomWait": true, "hostRate": 0.5, "limitRate": "2MiB"}"#))
        let job = try config.sites[0].makeJob(outputRoot: "out", jobs: 16)
        #expect(job.sitemaps.enabled && job.sitemaps.trustLastModified)
        #expect(job.politeness.wait == 2 && job.politeness.randomWait)
        #expect(job.politeness.hostRequestsPerSecond == 0.5)
        #expect(job.politeness.bytesPerSecond == Int64(2_097_152))
        #expect(job.politeness.maximumConcurrency == 16)
    }

    @Test(arguments: [
        (#""crawl": {"wiat": 1}"#, "unknown key"),
        (#""crawl": {"hostRate": 0}"#, "hostRate"),
        (#""proxy": "http://alice:secret@proxy:3128""#, "without credentials"),
        (#""proxy": "socks5://proxy:1080""#, "proxy URL"),
        (#""proxy": {"url": "http://proxy:3128", "user": "alice"}"#, "password"),
        (#""proxy": {"fromEnvironment": true, "url": "http://proxy:3128"}"#, "either"),
        (#""identity": {"cert": "pkcs11:token=t;object=k;pin-value=Kx9q-pin"}"#, "without a PIN"),
        (#""identity": {"cert": "pkcs11:token=t"}"#, "PKCS#11 URI"),
    ])
    func refusesWhatCannotWork(_ fragment: String, _ message: String) throws {
        let fixture = try ConfigFixture()
        let error = fixture.error(ConfigFixture.site(fragment))
        #expect(error != nil, "accepted \(fragment)")
        #expect(error.map { $0.summary.contains(message) || $0.hint.contains(message) } == true, "\(String(describing: error?.summary))")
        // The secrets hold letters a UUID (the fixture's folder name) never has.
        #expect(error.map { !$0.summary.contains("secret") && !$0.summary.contains("Kx9q") } != false)
    }

    @Test func proxyAndTokenAndSystemAnchorsAreKept() throws {
        let fixture = try ConfigFixture()
        let config = try fixture.load(ConfigFixture.site(#"""
            "proxy": {"url": "https://proxy.corp:3129", "noProxy": [".lan"], "user": "alice", "password": {"env": "PROXY_PASSWORD"}, "cacert": "ca.pem"},
            "identity": {"cert": "certs/me.pem", "key": "pkcs11:token=Card;id=%01", "module": "/usr/lib/vendor.so", "password": {"env": "PIN"}},
            "trust": {"default": {"type": "default", "cacert": ["ca.pem"], "system": true}}
            """#))
        let site = config.sites[0]
        #expect(site.proxy == ProxyConfig(mode: .url("https://proxy.corp:3129"), noProxy: [".lan"], user: "alice",
                                          password: .environment("PROXY_PASSWORD"), caFile: fixture.directory.path + "/ca.pem"))
        #expect(site.identity?.key == "pkcs11:token=Card;id=%01")
        #expect(site.identity?.certificate == fixture.directory.path + "/certs/me.pem")
        #expect(site.identity?.module == "/usr/lib/vendor.so")
        #expect(site.trust.defaultPolicy == .default(anchors: [TrustPolicyConfig.systemStoreAnchor, fixture.directory.path + "/ca.pem"], verifyHost: true))
        // Dumped again, "system": true comes back beside cacert.
        let dumped = String(describing: site.trust.defaultPolicy?.dumpJSON)
        #expect(dumped.contains("system"))
    }
}
