import MirrorCore
import MirrorStore
import MirrorTestSupport
import Testing
@testable import MirrorCrawler

@Suite struct URLRegistryTests {
    /// Every URL keeps its id through the table's growth, is found by its parsed form and by
    /// its text, and gives its text back; a URL never added is not found.
    @Test func idsAreStableAndTextsComeBack() throws {
        var registry = URLRegistry()
        var urls: [WebURL] = []
        for i in 0..<20_000 {
            let url = try webURL("https://example.com/section-\(i % 97)/page-\(i).html?q=\(i % 5)")
            urls.append(url)
            let (id, isNew) = registry.add(url)
            #expect(isNew)
            #expect(id == UInt32(i))
        }
        #expect(registry.count == 20_000)
        for (i, url) in urls.enumerated() where i % 13 == 0 {
            #expect(registry.id(of: url) == UInt32(i))
            #expect(registry.id(forKey: url.string) == UInt32(i))
            #expect(registry.text(of: UInt32(i)) == url.string)
            #expect(registry.url(of: UInt32(i)) == url)
            #expect(registry.add(url) == (UInt32(i), false))
        }
        // Another spelling of the same URL is the same URL (the key is the normalised text).
        #expect(registry.id(of: try webURL("HTTPS://EXAMPLE.com:443/section-0/./page-0.html?q=0")) == 0)
        #expect(registry.id(of: try webURL("https://example.com/not-added")) == nil)
        #expect(registry.id(forKey: "https://example.com/not-added") == nil)
    }

    /// What a URL costs in memory does not depend on its length: the texts are in the spill.
    @Test func memoryPerURLIsSmallAndIndependentOfLength() throws {
        var short = URLRegistry()
        var long = URLRegistry()
        let padding = String(repeating: "segment/", count: 60)
        for i in 0..<50_000 {
            short.add(key: "https://e.x/\(i)")
            long.add(key: "https://example.com/\(padding)\(i).html")
        }
        #expect(short.tableBytes == long.tableBytes)
        #expect(short.tableBytes / 50_000 <= 24, "\(short.tableBytes / 50_000) bytes a URL")
        #expect(long.texts.size > 50_000 * 480, "the texts are in the spill")
    }

    /// A text's length takes 16 bits; a longer text is kept aside and comes back whole, as do
    /// the short ones around it, in its block and the next.
    @Test func anOutsizedTextComesBack() throws {
        var registry = URLRegistry()
        let huge = "https://example.com/" + String(repeating: "a", count: 70_000)
        registry.add(key: "https://example.com/before")
        let (id, isNew) = registry.add(key: huge)
        for i in 0..<100 { registry.add(key: "https://example.com/after/\(i)") }
        #expect(isNew)
        #expect(registry.text(of: id) == huge)
        #expect(registry.id(forKey: huge) == id)
        #expect(registry.text(of: 0) == "https://example.com/before")
        for i in 0..<100 { #expect(registry.text(of: id + 1 + UInt32(i)) == "https://example.com/after/\(i)") }
    }

    /// Copies share the text file: when a copy adds URLs, the texts the original adds next do
    /// not follow its last one in the file, and every text of both still comes back, across
    /// blocks.
    @Test func copiesThatAddShareTheTextsFile() throws {
        var original = URLRegistry()
        for i in 0..<30 { original.add(key: "https://example.com/o/\(i)") }
        var copy = original
        for i in 0..<50 { copy.add(key: "https://example.com/c/\(i)") }
        for i in 30..<200 {
            original.add(key: "https://example.com/o/\(i)")
            if i % 7 == 0 { copy.add(key: "https://example.com/c/more-\(i)") }
        }
        for i in 0..<200 { #expect(original.text(of: UInt32(i)) == "https://example.com/o/\(i)", "\(i)") }
        for i in 0..<30 { #expect(copy.text(of: UInt32(i)) == "https://example.com/o/\(i)") }
        for i in 0..<50 { #expect(copy.text(of: UInt32(30 + i)) == "https://example.com/c/\(i)") }
        #expect(copy.text(of: 80) == "https://example.com/c/more-35")
        #expect(copy.id(forKey: "https://example.com/o/100") == nil)
    }

    /// A registry whose texts are in a file of the staging snapshot reads them back from it.
    @Test func textsInAFileComeBack() throws {
        let folder = try TemporaryDirectory()
        let fileSystem = try SecureFileSystem(root: folder.path)
        try fileSystem.createDirectory("_mirror/tmp")
        var registry = URLRegistry(texts: try SpillFile.create(in: fileSystem, at: "_mirror/tmp/urls.spill"))
        for i in 0..<30_000 { registry.add(key: "https://example.com/p/\(i)") }
        registry.texts.flush()
        #expect(registry.text(of: 0) == "https://example.com/p/0")
        #expect(registry.text(of: 29_999) == "https://example.com/p/29999")
        #expect(registry.id(forKey: "https://example.com/p/12345") == 12_345)
    }
}
