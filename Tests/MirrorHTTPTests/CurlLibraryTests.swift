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
        let maps = try #require(Self.readProcFile("/proc/self/maps"))
        #expect(maps.contains("/libcurl.so.4"), "libcurl.so.4 is not mapped")
        #expect(String(cString: CMirrorShims_curl_library_name()) == "libcurl.so.4")
        #expect(CMirrorShims_curl_load_error() == nil)
    }

    @Test("a library that is not there is named in the error, with the loader's reason")
    func missingLibrary() {
        let (status, error) = open("libcurl-not-installed.so.9", symbols: ["curl_easy_init"])
        #expect(status == -1)
        #expect(error.contains("libcurl-not-installed.so.9"), "\(error)")
        #expect(error.contains("No such file"), "\(error)")
    }

    @Test("a symbol the library lacks is named in the error")
    func missingSymbol() {
        let (status, error) = open("libcurl.so.4", symbols: ["curl_easy_init", "curl_no_such_function"])
        #expect(status == -1)
        #expect(error == "libcurl.so.4 has no curl_no_such_function", "\(error)")
        let found = open("libcurl.so.4", symbols: ["curl_easy_init", "curl_multi_poll"])
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
    }

    @Test("the test binary, built like the tool, does not link libcurl: it is not among its NEEDED libraries")
    func notLinked() throws {
        let readelf = try #require(CommandRunner.tool(named: "readelf"), "readelf is not installed: run scripts/install-deps.sh")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let dynamic = CommandRunner(executable: readelf).run(["-d", executable])
        try #require(dynamic.succeeded, "\(dynamic)")
        let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libssl.so.3") }, "the check reads NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("libcurl") }, "\(needed)")
    }

    /// A /proc file, read to its end (its size reads as 0, so it is read in pieces).
    private static func readProcFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while let piece = try? handle.read(upToCount: 65536), !piece.isEmpty { bytes += piece }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func open(_ library: String, symbols: [String]) -> (status: Int32, error: String) {
        var table = [UnsafeMutableRawPointer?](repeating: nil, count: symbols.count)
        var error = [CChar](repeating: 0, count: 512)
        let names = symbols.map { strdup($0) }
        defer { names.forEach { free($0) } }
        let status = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { namePointers in
            table.withUnsafeMutableBufferPointer { tablePointer in
                CMirrorShims_library_open(library, tablePointer.baseAddress, namePointers.baseAddress, Int32(symbols.count), &error, error.count)
            }
        }
        return (status, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
