import CMirrorShims
import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorHTTP

/// Brotli's decoder is opened at run time (dlopen) by its first use instead of linked: only an
/// exchange recorded for an archive decodes br bodies itself (issue #27).
@Suite("Brotli's decoder, opened at run time")
struct BrotliLibraryTests {
    @Test("the test binary, built like the tool, does not link Brotli's decoder")
    func notLinked() throws {
        let needed = try RuntimeLibraries.neededByThisBinary()
        #expect(needed.contains { $0.contains("libssl.so.3") }, "the check reads NEEDED entries: \(needed)")
        #expect(!needed.contains { $0.contains("libbrotli") }, "\(needed)")
    }

    @Test("a br body decodes through the opened library, which is then mapped into the process")
    func decodes() throws {
        let body = try ContentDecodingTests.encoded("br")
        #expect(body.count < ContentDecodingTests.text.count / 10, "the body is compressed")
        #expect(try ContentDecoding.decode(body, contentEncoding: "br", limit: 1 << 20) == ContentDecodingTests.text)
        #expect(BrotliLibrary.unavailableReason == nil)
        #expect(CMirrorShims_brotli_load_error() == nil)
        #expect(String(cString: CMirrorShims_brotli_library_name()) == "libbrotlidec.so.1")
        #expect(try RuntimeLibraries.processMaps().contains("/libbrotlidec.so.1"), "libbrotlidec.so.1 is not mapped")
    }

    @Test("damaged br data fails with the decoder's own message")
    func damaged() throws {
        var body = try ContentDecodingTests.encoded("br")
        for index in stride(from: 4, to: min(body.count, 64), by: 3) { body[index] ^= 0x5A }
        do {
            _ = try ContentDecoding.decode(body, contentEncoding: "br", limit: 1 << 20)
            Issue.record("damaged data decoded")
        } catch {
            let text = "\(error)"
            #expect(text.contains("br"), "\(text)")
            #expect(!text.contains("not open"), "the library was open: \(text)")
        }
    }

    @Test("the functions the table looks up are the library's; a missing one is named in the error")
    func lookups() {
        let names = ["BrotliDecoderCreateInstance", "BrotliDecoderDestroyInstance", "BrotliDecoderDecompressStream",
                     "BrotliDecoderGetErrorCode", "BrotliDecoderErrorString"]
        let found = RuntimeLibraries.open("libbrotlidec.so.1", symbols: names)
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
        let lacking = RuntimeLibraries.open("libbrotlidec.so.1", symbols: names + ["BrotliNoSuchFunction"])
        #expect(lacking.status == -1)
        #expect(lacking.error == "libbrotlidec.so.1 has no BrotliNoSuchFunction", "\(lacking.error)")
    }
}
