import Foundation
import MirrorCore
import Testing
@testable import MirrorCrawler

@Suite struct NotMirroredPageTests {
    @Test func namesTheReasonAsTextLinksNowhereAndIsTheSameBytesForTheSameReason() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let bytes = NotMirroredPage.html(reason: .failed(.httpStatus(404), cause: "HTTP 404"), site: "intra\"net<b>", date: date)
        let page = String(decoding: bytes, as: UTF8.self)
        #expect(page.hasPrefix(NotMirroredPage.marker))
        #expect(page.contains("<code>http-404</code>"))
        #expect(page.contains("<code>intra&quot;net&lt;b&gt;</code>"))
        #expect(page.contains("2027-01-15T08:00:00Z"), "\(page)")
        #expect(page.contains("_mirror/manifest.tsv"), "it says where its URL is listed")
        #expect(!page.contains("href="))
        #expect(!page.contains("src="))
        #expect(!page.contains("<b>"))
        // No URL in it: the crawl writes it once and links it at every path that failed alike.
        #expect(bytes == NotMirroredPage.html(reason: .failed(.httpStatus(404), cause: "HTTP 404"), site: "intra\"net<b>", date: date))
        #expect(bytes != NotMirroredPage.html(reason: .failed(.httpStatus(410), cause: "HTTP 410"), site: "intra\"net<b>", date: date))
        #expect(bytes != NotMirroredPage.html(reason: .failed(.httpStatus(404), cause: "HTTP 404"), site: "other", date: date))

        let limits = String(decoding: NotMirroredPage.html(
            reason: .beyondLimits, site: "s", date: Date()),
            as: UTF8.self)
        #expect(limits.contains("beyond the crawl limits"))
        #expect(limits.contains("--depth"))
        #expect(!limits.contains("could not fetch"))

        let robots = String(decoding: NotMirroredPage.html(reason: .failed(.robots, cause: "disallowed by robots.txt"),
            site: "s", date: Date()), as: UTF8.self)
        #expect(robots.contains("robots.txt disallows it") && robots.contains("--ignore-robots"))

        let redirect = String(decoding: NotMirroredPage.html(reason: .failed(.redirectOutOfScope,
            cause: "redirects to https://login.example/?next=<x>, outside the scope"), site: "s", date: Date()), as: UTF8.self)
        #expect(redirect.contains("(<code>redirect-out-of-scope</code>): redirects to https://login.example/?next=&lt;x&gt;, outside the scope."))
        #expect(!redirect.contains("href="))
    }

    @Test("a held-back page names its rule, why it guards, by how much, and the option that lifts it", arguments: TrapRule.allCases)
    func heldBack(rule: TrapRule) {
        let held = CrawlState.HeldBack(rule: rule, detail: "21 <pages> in a row", referrer: "https://intranet.example/")
        let page = String(decoding: NotMirroredPage.html(reason: .heldBack(held), site: "s", date: Date()), as: UTF8.self)
        #expect(page.contains("<code>\(rule.rawValue)</code>"), "\(page)")
        #expect(page.contains("<code>\(rule.option)") && page.contains("21 &lt;pages&gt; in a row"), "\(page)")
        #expect(rule == .depth ? page.contains("beyond the crawl limits") : page.contains(htmlEscape(rule.explanation)))
        #expect(!page.contains("href=") && !page.contains("<pages>"))
    }

    @Test func aPageRemovedFromTheOriginSaysSoAndTheManifestKeepsTheReason() {
        let page = String(decoding: NotMirroredPage.html(reason: .gone(status: 410), site: "s", date: Date()), as: UTF8.self)
        #expect(page.contains("HTTP 410") && page.contains("removed from the origin"))
        #expect(NotMirroredReason.gone(status: 410).manifestText
            == "not mirrored: http-410, removed from the origin since the previous snapshot")
        #expect(NotMirroredReason.failed(.urlTooLong, cause: "x").manifestText == "not mirrored: url-too-long")
        #expect(NotMirroredReason.stopped.manifestText == "not mirrored: the run stopped before fetching it")
    }

    @Test func aPageTheRunStoppedBeforeSaysSo() {
        let page = String(decoding: NotMirroredPage.html(reason: .stopped, site: "s", date: Date()),
            as: UTF8.self)
        #expect(page.contains("stopped early") && page.contains("--max-run-time") && page.contains("the next run fetches it"))
    }

    @Test func placeholdersAreAlwaysStaleUntilAFetchIsRecorded() {
        let index = FreshnessIndex(maxAge: nil)
        index.replace(["page.html": Date()], placeholders: ["beyond.html"])
        #expect(index.isStale("beyond.html"))
        #expect(index.isPlaceholder("beyond.html"))
        #expect(!index.isStale("page.html"), "no max age: a mirrored file is never stale")
        #expect(!index.isPlaceholder("page.html"))
        index.record("beyond.html", fetchedAt: Date())
        #expect(!index.isStale("beyond.html"))
        #expect(!index.isPlaceholder("beyond.html"))

        let aged = FreshnessIndex(maxAge: 60)
        aged.replace(["old.html": Date(timeIntervalSinceNow: -120), "new.html": Date()], placeholders: ["p.html"])
        #expect(aged.isStale("old.html"))
        #expect(!aged.isStale("new.html"))
        #expect(aged.isStale("p.html"))
        #expect(!aged.isStale("unknown.html"))
    }
}
