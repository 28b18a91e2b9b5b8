import MirrorCore
import Testing
@testable import MirrorCrawler

/// The site name `mirror URL` uses without `--name`: the folder under the output root.
@Suite struct SiteJobNameTests {
    @Test(arguments: [
        ("https://intranet.example/", "intranet.example"),
        ("https://Intranet.EXAMPLE/docs/", "intranet.example"),
        ("https://intranet.example:443/", "intranet.example"),
        ("https://intranet.example:8443/a?b#c", "intranet.example_8443"),
        ("https://127.0.0.1:43293/tiny/index.html", "127.0.0.1_43293"),
        ("https://[::1]:8443/", "__1_8443"),
        ("https://[2001:db8::1]/", "2001_db8__1"),
        ("https://bücher.example/", "bücher.example"),
    ])
    func nameIsTheHostAndAPort(url: String, name: String) throws {
        let parsed = try #require(WebURL(url))
        #expect(SiteJob.defaultName(for: parsed) == name)
    }

    /// A name never holds a path separator or a colon, whatever the host.
    @Test func nameIsOneSafeFolder() throws {
        for url in ["https://[fe80::1%25eth0]/", "https://a.b.c.d.e.example:1/", "https://x/"] {
            guard let parsed = WebURL(url) else { continue }
            let name = SiteJob.defaultName(for: parsed)
            #expect(!name.isEmpty)
            #expect(!name.contains("/") && !name.contains(":") && !name.contains("[") && !name.contains("]"))
        }
    }
}
