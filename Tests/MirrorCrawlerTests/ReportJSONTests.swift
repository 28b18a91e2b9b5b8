import Foundation
import MirrorCore
import Testing
@testable import MirrorCrawler

/// The hand-written JSON of `report.json` and `robots.json` reads back as the same values, and
/// says what `JSONEncoder` said.
@Suite struct ReportJSONTests {
    static func report(render: Bool, previous: String?) -> CrawlReport {
        var report = CrawlReport(
            site: "intra \"net\"", startURLs: ["https://intranet.example/docs/", "https://intranet.example/ü?q=1&x=<y>"],
            snapshot: "20270115T080000Z-1", startedAt: Date(timeIntervalSince1970: 1_800_000_000),
            finishedAt: Date(timeIntervalSince1970: 1_800_000_042.75), durationSeconds: 42.75, finishReason: "exhausted",
            fetched: 12, pages: 10, requisites: 2, failed: 2, bytes: 5_000_000_000, added: 3, changed: 4, unchanged: 5,
            removed: 6, previousSnapshot: previous, rewrittenDocuments: 9,
            errorsByKind: ["http-404": 1, "timeout": 1],
            errors: [.init(url: "https://intranet.example/gone", kind: "http-404", cause: "HTTP 404", referrer: "https://intranet.example/"),
                     .init(url: "https://intranet.example/slow", kind: "timeout", cause: "no byte\nfor 30 s\t(\\)", referrer: nil)],
            outOfScope: ["https://other.example/"], outOfScopeCount: 3,
            warnings: ["a warning with \"quotes\" and a control \u{01} character"],
            heldBack: [.init(url: "https://intranet.example/a/a/a", rule: "repeated-segment", detail: "3 > 2", referrer: "https://intranet.example/a/a")],
            heldBackCount: 1, heldBackByRule: ["repeated-segment": 1], notFetched: ["https://intranet.example/later"],
            notFetchedCount: 1, stale: 2, trapPeaks: {
                var peaks = TrapPeaks()
                peaks.pathSegments = 7
                peaks.shapeChain = 3
                return peaks
            }())
        report.proxy = "direct (no proxy)"
        if render {
            report.render = RenderSummary(
                isolation: "namespaces", scripts: "on", rendered: 4, unchanged: 1, failed: 0,
                budgetCut: [.init(url: "https://intranet.example/app", limit: "15 s")], refusedCount: 1,
                refused: [.init(url: "https://tracker.example/x.js", reason: "out of scope", page: "https://intranet.example/app")],
                failedRequests: 0, cacheHits: 5, seconds: 3.5, browserStarts: 1)
        }
        return report
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static func encoderText(_ report: CrawlReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(report)
    }

    @Test(arguments: [(false, nil as String?), (true, "20270114T080000Z-9")])
    func reportReadsBackAndMatchesJSONEncoder(render: Bool, previous: String?) throws {
        let report = Self.report(render: render, previous: previous)
        let written = try report.jsonBytes()
        let back = try Self.decoder().decode(CrawlReport.self, from: Data(written))
        #expect(back.site == report.site && back.startURLs == report.startURLs && back.bytes == report.bytes)
        #expect(back.errors == report.errors && back.heldBack == report.heldBack && back.warnings == report.warnings)
        #expect(back.errorsByKind == report.errorsByKind && back.heldBackByRule == report.heldBackByRule)
        #expect(back.trapPeaks == report.trapPeaks && back.render == report.render && back.proxy == report.proxy)
        #expect(back.previousSnapshot == previous && back.durationSeconds == 42.75)
        #expect(back.startedAt == report.startedAt, "whole seconds survive")
        #expect(back.finishedAt == Date(timeIntervalSince1970: 1_800_000_042), "ISO 8601 keeps whole seconds, as JSONEncoder's did")
        // The same document as JSONEncoder's, value for value.
        let ours = try JSONSerialization.jsonObject(with: Data(written)) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: try Self.encoderText(report)) as? NSDictionary
        #expect(ours != nil && ours == theirs)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"added\" : 3,\n"), "pretty, sorted keys")
        #expect(!text.contains("\\/"))
    }

    @Test func storedRobotsReadBackAndMatchJSONEncoder() throws {
        var stored = StoredRobots()
        stored.origins["https://b.example"] = .init(etag: "\"e1\"", lastModified: nil, body: Data("User-agent: *\nDisallow: /x\n".utf8))
        stored.origins["https://a.example:8443"] = .init(etag: nil, lastModified: "Thu, 03 Dec 2026 22:41:55 GMT", body: Data([0, 255, 10]))
        let written = stored.jsonBytes()
        #expect(try JSONDecoder().decode(StoredRobots.self, from: Data(written)) == stored)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let theirs = try JSONSerialization.jsonObject(with: try encoder.encode(stored)) as? NSDictionary
        #expect(try JSONSerialization.jsonObject(with: Data(written)) as? NSDictionary == theirs)
    }
}
