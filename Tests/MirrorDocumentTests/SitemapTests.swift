import Foundation
import MirrorDocument
import MirrorTestSupport
import Testing

/// Sitemaps (sitemaps.org 0.9) through libxml2's XML reader: what is read, and what is refused.
@Suite struct SitemapTests {
    /// gzip output, from a file (binary-safe).
    static func gzipped(_ text: String) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let file = directory.appending("s.xml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = CommandRunner(executable: URL(fileURLWithPath: "/bin/gzip")).run(["-n", file.path])
        guard result.succeeded else { throw SitemapTestFailure(reason: "gzip failed: \(result.stderr)") }
        return Array(try Data(contentsOf: directory.appending("s.xml.gz")))
    }

    struct SitemapTestFailure: Error { let reason: String }

    @Test func readsAURLSetWithLastmod() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><loc> https://example.com/a?x=1&amp;y=2 </loc><lastmod>2024-05-06</lastmod><priority>0.5</priority></url>
              <url><loc>https://example.com/b</loc><lastmod>2024-05-06T10:20:30+02:00</lastmod></url>
              <url><loc><![CDATA[https://example.com/c]]></loc><lastmod>not a date</lastmod></url>
              <url><lastmod>2024-01-01</lastmod></url>
            </urlset>
            """
        let sitemap = try Sitemap.parse(Array(xml.utf8))
        #expect(sitemap.kind == .urlSet)
        #expect(sitemap.entries.map(\.location) == ["https://example.com/a?x=1&y=2", "https://example.com/b", "https://example.com/c"])
        #expect(sitemap.entries[0].lastModified == Date(timeIntervalSince1970: 1_714_953_600))
        #expect(sitemap.entries[1].lastModified == Date(timeIntervalSince1970: 1_714_983_630))
        #expect(sitemap.entries[2].lastModified == nil)
    }

    @Test func readsAnIndexAndGzip() throws {
        let xml = """
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2023-01-02T03:04Z</lastmod></sitemap>
              <sitemap><loc>/s2.xml</loc></sitemap>
            </sitemapindex>
            """
        let sitemap = try Sitemap.parse(try Self.gzipped(xml))
        #expect(sitemap.kind == .index)
        #expect(sitemap.entries.map(\.location) == ["https://example.com/s1.xml.gz", "/s2.xml"])
        #expect(sitemap.entries[0].lastModified == Date(timeIntervalSince1970: 1_672_628_640))
    }

    @Test func keepsAtMostTheLimitOfEntries() throws {
        let urls = (0..<30).map { "<url><loc>https://example.com/\($0)</loc></url>" }.joined()
        let sitemap = try Sitemap.parse(Array("<urlset>\(urls)</urlset>".utf8), maximumEntries: 25)
        #expect(sitemap.entries.count == 25)
        #expect(sitemap.skippedEntries == 5)
        #expect(Sitemap.maximumEntries == 50_000 && Sitemap.maximumBytes == 50 * 1024 * 1024)
    }

    @Test(arguments: [
        ("<!DOCTYPE urlset [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]><urlset><url><loc>&b;</loc></url></urlset>", "DOCTYPE"),
        ("<!DOCTYPE urlset SYSTEM \"http://127.0.0.1:1/evil.dtd\"><urlset/>", "DOCTYPE"),
        ("<html><body>not a sitemap</body></html>", "root element is <html>"),
        ("<urlset><url><loc>x</loc></urlset>", "not well-formed"),
        ("", "empty"),
    ])
    func refusesWhatIsNotASafeSitemap(_ xml: String, _ reason: String) {
        do {
            _ = try Sitemap.parse(Array(xml.utf8))
            Issue.record("accepted \(xml)")
        } catch {
            #expect(error.summary.contains(reason) || error == .doctypeRefused && reason == "DOCTYPE", "\(error.summary)")
        }
    }

    @Test func gzipDecompressionStopsAtTheLimit() throws {
        let big = String(repeating: "<!-- padding -->", count: 10_000)
        let compressed = try Self.gzipped("<urlset>\(big)</urlset>")
        #expect(compressed.count < 10_000)
        #expect(throws: SitemapError.tooLarge(limit: 50_000)) { try Gzip.decompress(compressed, limit: 50_000) }
        #expect(try Gzip.decompress(compressed, limit: 1_000_000).count > 160_000)
        #expect(throws: SitemapError.self) { try Gzip.decompress(Array(compressed.prefix(compressed.count / 2)), limit: 1_000_000) }
    }
}
