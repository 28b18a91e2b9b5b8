import CMirrorShims
import Foundation
import MirrorDocument
import MirrorTestSupport
import Testing

/// libxml2 is opened at run time (dlopen) instead of linked, so that it and the ICU it brings
/// load on a thread of their own while a command starts (issue #27).
@Suite("libxml2, opened at run time")
struct LibXML2LibraryTests {
    @Test("libxml2 opens and initialises, and is then mapped into the process")
    func opens() throws {
        LibXML2.open()
        #expect(LibXML2.unavailableReason == nil)
        let maps = try RuntimeLibraries.processMaps()
        #expect(maps.contains("/libxml2.so.2"), "libxml2.so.2 is not mapped")
        #expect(String(cString: CMirrorShims_xml_library_name()) == "libxml2.so.2")
        #expect(CMirrorShims_xml_load_error() == nil)
    }

    @Test("the test binary, built like the tool, does not link libxml2: it is not among its NEEDED libraries")
    func notLinked() throws {
        let needed = try RuntimeLibraries.neededByThisBinary()
        #expect(needed.contains { $0.contains("libssl.so.3") }, "the check reads NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("libxml2") }, "\(needed)")
        #expect(!needed.contains { $0.contains("libicu") }, "\(needed)")
    }

    @Test("a library the loader cannot find, or a function libxml2 lacks, is named in the error")
    func openErrors() {
        let missing = RuntimeLibraries.open("libxml2-not-installed.so.9", symbols: ["htmlParseDocument"])
        #expect(missing.status == -1)
        #expect(missing.error.contains("libxml2-not-installed.so.9"), "\(missing.error)")
        #expect(missing.error.contains("No such file"), "\(missing.error)")
        let lacking = RuntimeLibraries.open("libxml2.so.2", symbols: ["htmlParseDocument", "xmlNoSuchFunction"])
        #expect(lacking.status == -1)
        #expect(lacking.error == "libxml2.so.2 has no xmlNoSuchFunction", "\(lacking.error)")
        let found = RuntimeLibraries.open("libxml2.so.2", symbols: ["htmlParseDocument", "xmlTextReaderRead"])
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
    }

    @Test("HTML and sitemaps parse through the opened library, from several threads at once")
    func parsesFromThreads() async throws {
        let html = Array("""
            <!doctype html><html><head><link rel=stylesheet href="s.css"><!-- <a href="no.html"> --></head>
            <body><a href="a.html">a</a><img src="i.png" srcset="i2.png 2x"><script>"<a href='x.html'>"</script></body></html>
            """.utf8)
        let sitemap = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>
            """.utf8)
        let results = await withTaskGroup(of: ([String], [String]).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let values = (try? HTMLExtractor.extract(html))?.references.map(\.value) ?? []
                    let locations = (try? Sitemap.parse(sitemap))?.entries.map(\.location) ?? []
                    return (values, locations)
                }
            }
            var all: [([String], [String])] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        for (values, locations) in results {
            #expect(values == ["s.css", "a.html", "i.png", "i2.png"], "\(values)")
            #expect(locations == ["https://example.com/a"])
        }
    }
}
