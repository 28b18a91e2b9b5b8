import CMirrorShims
import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorArchive

/// libdeflate is opened at run time (dlopen) by its first use instead of linked: only archive
/// output compresses with it (issue #27).
@Suite("libdeflate, opened at run time")
struct DeflateLibraryTests {
    @Test("the test binary, built like the tool, does not link libdeflate")
    func notLinked() throws {
        let needed = try RuntimeLibraries.neededByThisBinary()
        #expect(needed.contains { $0.contains("libssl.so.3") }, "the check reads NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("libdeflate") }, "\(needed)")
    }

    /// `member` decompressed by Python's gzip module.
    static func gunzip(_ member: [UInt8]) throws -> [UInt8] {
        let scratch = try TemporaryDirectory(prefix: "deflate-library")
        let input = scratch.appending("member.gz").path
        let output = scratch.appending("plain").path
        try Data(member).write(to: URL(fileURLWithPath: input))
        let run = CommandRunner(executable: try PythonTools.tool("python"))
            .run(["-c", "import gzip, sys; open(sys.argv[2], 'wb').write(gzip.decompress(open(sys.argv[1], 'rb').read()))", input, output])
        guard run.succeeded else { throw GunzipFailure(description: "\(run)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test("gzip members, deflated and stored, are made through the opened library, which is then mapped")
    func compresses() throws {
        let text = Array(String(repeating: "a WARC record's payload, deflated by libdeflate ", count: 300).utf8)
        let buffer = try GzipBuffer()
        let deflated = text.withUnsafeBytes { Array(buffer.member($0, deflate: true)) }
        #expect(deflated.count < text.count / 5, "deflated: \(deflated.count) bytes")
        #expect(try Self.gunzip(deflated) == text)
        // A stored member's CRC-32 is libdeflate's too: gzip checks it.
        let stored = text.withUnsafeBytes { Array(buffer.member($0, deflate: false)) }
        #expect(stored.count > text.count)
        #expect(try Self.gunzip(stored) == text)
        #expect(DeflateLibrary.unavailableReason == nil)
        #expect(CMirrorShims_deflate_load_error() == nil)
        #expect(String(cString: CMirrorShims_deflate_library_name()) == "libdeflate.so.0")
        #expect(try RuntimeLibraries.processMaps().contains("/libdeflate.so.0"), "libdeflate.so.0 is not mapped")
    }

    @Test("the functions the table looks up are the library's; a missing one is named in the error")
    func lookups() {
        let names = ["libdeflate_alloc_compressor", "libdeflate_free_compressor", "libdeflate_gzip_compress_bound",
                     "libdeflate_gzip_compress", "libdeflate_crc32"]
        let found = RuntimeLibraries.open("libdeflate.so.0", symbols: names)
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
        let lacking = RuntimeLibraries.open("libdeflate.so.0", symbols: names + ["libdeflate_no_such_function"])
        #expect(lacking.status == -1)
        #expect(lacking.error == "libdeflate.so.0 has no libdeflate_no_such_function", "\(lacking.error)")
    }
}

/// Python's gzip module could not read a member.
private struct GunzipFailure: Error, CustomStringConvertible {
    let description: String
}
