import Foundation
import MirrorCore
@testable import MirrorCrawler
import MirrorHTTP
import MirrorTLS
import MirrorTestSupport
import Testing

/// ``Crawler``'s `afterFetching`: called once, when the run will make no more requests, before
/// the snapshot is assembled; `mirror` closes its client's connections there (issue #27).
@Suite(.serialized) struct CrawlerAfterFetchingTests {
    /// What the callback saw: how often it ran, nginx's request count and whether the snapshot
    /// was already published at that moment.
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [(requests: Int, published: Bool)] = []
        func append(_ call: (requests: Int, published: Bool)) { lock.lock(); seen.append(call); lock.unlock() }
        var all: [(requests: Int, published: Bool)] { lock.lock(); defer { lock.unlock() }; return seen }
    }

    static func writeSite(_ nginx: NginxFixture) throws {
        var links = ""
        for i in 1...6 {
            links += "<a href=\"p\(i).html\">\(i)</a>"
            try nginx.site.write("p\(i).html", "<!doctype html><link rel=stylesheet href=site.css><p>page \(i)</p><a href=index.html>home</a>")
        }
        try nginx.site.write("index.html", "<!doctype html><title>home</title>\(links)")
        try nginx.site.write("site.css", "body { color: black }")
    }

    @Test func theCallbackRunsOnceAfterTheLastRequestAndAClosedClientStillPublishes() async throws {
        let nginx = try NginxFixture(.mtls)
        try Self.writeSite(nginx)
        let output = try TemporaryDirectory()
        let identity = try ClientIdentity.load(certificate: nginx.pki.path("client.p12"), password: nginx.pki.secretPassword)
        let start = try WebURL.parse(nginx.url(.mtls))
        let security = SecurityPolicy(
            identity: identity, identityScope: HostScope(["\(start.host):\(start.effectivePort)"]),
            trust: ServerTrustManager(fallback: DefaultTrustEvaluator(anchors: .files([nginx.pki.path("server-root.pem")]))))
        let job = SiteJob(name: "site", startURLs: [start], outputRoot: output.path)
        let client = HTTPClient()
        defer { client.shutdown() }
        let calls = Calls()
        let current = output.path + "/site/current"
        let crawler = try Crawler(job: job, security: security, client: client, logger: Logger(minimumLevel: .error),
                                  afterFetching: {
                                      calls.append((nginx.accessLogEntries(for: .mtls).count,
                                                    FileManager.default.fileExists(atPath: current)))
                                      client.beginShutdown()
                                  })
        let report = try await crawler.run()
        #expect(report.failed == 0)
        #expect(report.pages + report.requisites == 9)  // `/`, `index.html`, six pages, the stylesheet
        let seen = calls.all
        #expect(seen.count == 1)
        // robots.txt and the nine URLs were all requested before it; none after it.
        #expect(seen.first?.requests == 10)
        #expect(nginx.accessLogEntries(for: .mtls).count == 10)
        #expect(seen.first?.published == false, "it runs before the snapshot is published")
        // The snapshot is whole although the client was closed before the assembly.
        let index = try String(contentsOfFile: current + "/index.html", encoding: .utf8)
        #expect(index.contains("href=\"p6.html\""))
        #expect(FileManager.default.fileExists(atPath: current + "/site.css"))
        #expect(FileManager.default.fileExists(atPath: current + "/_mirror/manifest.tsv"))
    }

    @Test func aRunWhoseStartURLFailedCallsItOnceAndPublishesNothing() async throws {
        let output = try TemporaryDirectory()
        let port = FreePort.allocate()
        let start = try WebURL.parse("https://127.0.0.1:\(port)/")
        let security = SecurityPolicy(identity: nil, identityScope: HostScope([]),
                                      trust: ServerTrustManager(fallback: DefaultTrustEvaluator(anchors: .system)))
        let client = HTTPClient()
        defer { client.shutdown() }
        let calls = Calls()
        let crawler = try Crawler(job: SiteJob(name: "site", startURLs: [start], outputRoot: output.path), security: security,
                                  client: client, logger: Logger(minimumLevel: .error),
                                  afterFetching: { calls.append((0, false)) })
        await #expect(throws: CrawlError.self) { _ = try await crawler.run() }
        // The fetch phase ended (the start URL failed), so it ran once; the run then failed in the assembly.
        #expect(calls.all.count == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path + "/site/current"))
    }

    @Test func onlyALargeSnapshotIsWrittenOutBeforeThePublication() {
        #expect(!Crawler.flushesEarly(bytes: 0, files: 0))
        #expect(!Crawler.flushesEarly(bytes: 262_001, files: 1))  // Go's specification
        #expect(!Crawler.flushesEarly(bytes: Crawler.earlyFlushBytes - 1, files: Crawler.earlyFlushFiles - 1))
        #expect(Crawler.flushesEarly(bytes: Crawler.earlyFlushBytes, files: 1))
        #expect(Crawler.flushesEarly(bytes: 1_049_005, files: 1))  // Writing R Extensions
        #expect(Crawler.flushesEarly(bytes: 0, files: Crawler.earlyFlushFiles))  // an unchanged refresh: links, no bytes
    }
}
