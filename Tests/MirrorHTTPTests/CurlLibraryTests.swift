import CMirrorShims
import Foundation
import MirrorHTTP
import MirrorTestSupport
import Testing

/// libcurl is opened at run time (dlopen) instead of linked, so that its 30 libraries load on a
/// thread of their own while a command reads its identity (issue #27).
@Suite("libcurl, opened at run time")
struct CurlLibraryTests {
    @Test("libcurl opens and initialises, and is then mapped into the process")
    func opens() throws {
        CurlGlobal.preload()
        #expect(CurlGlobal.unavailableReason == nil)
        let maps = try RuntimeLibraries.processMaps()
        #expect(maps.contains("/libcurl.so.4"), "libcurl.so.4 is not mapped")
        #expect(String(cString: CMirrorShims_curl_library_name()) == "libcurl.so.4")
        #expect(CMirrorShims_curl_load_error() == nil)
    }

    @Test("a library that is not there is named in the error, with the loader's reason")
    func missingLibrary() {
        let (status, error) = RuntimeLibraries.open("libcurl-not-installed.so.9", symbols: ["curl_easy_init"])
        #expect(status == -1)
        #expect(error.contains("libcurl-not-installed.so.9"), "\(error)")
        #expect(error.contains("No such file"), "\(error)")
    }

    @Test("a symbol the library lacks is named in the error")
    func missingSymbol() {
        let (status, error) = RuntimeLibraries.open("libcurl.so.4", symbols: ["curl_easy_init", "curl_no_such_function"])
        #expect(status == -1)
        #expect(error == "libcurl.so.4 has no curl_no_such_function", "\(error)")
        let found = RuntimeLibraries.open("libcurl.so.4", symbols: ["curl_easy_init", "curl_multi_poll"])
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
    }

    @Test("the test binary, built like the tool, does not link libcurl: it is not among its NEEDED libraries")
    func notLinked() throws {
        let needed = try RuntimeLibraries.neededByThisBinary()
        #expect(needed.contains { $0.contains("libssl.so.3") }, "the check reads NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("libcurl") }, "\(needed)")
    }
}
