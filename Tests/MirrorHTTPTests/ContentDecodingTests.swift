import Foundation
import MirrorTestSupport
import Testing
@testable import MirrorHTTP

/// Our own Content-Encoding decoding (what libcurl did before a capture turned it off), on
/// bodies made by Python's zlib, gzip and brotli: every encoding, a chain of two, the limit,
/// damaged data, and chunks of every size.
@Suite struct ContentDecodingTests {
    static let text = Array(String(repeating: "the same bytes as libcurl would have given ", count: 400).utf8)

    /// `text` encoded by Python, by name ("gzip", "deflate", "raw", "br", "gzip, br" = gzip then br).
    static func encoded(_ names: String) throws -> [UInt8] {
        let script = """
            import brotli, gzip, sys, zlib
            data = sys.stdin.buffer.read()
            for name in sys.argv[1].split(","):
                name = name.strip()
                if name == "gzip": data = gzip.compress(data)
                elif name == "deflate": data = zlib.compress(data)
                elif name == "raw":
                    c = zlib.compressobj(6, zlib.DEFLATED, -15); data = c.compress(data) + c.flush()
                elif name == "br": data = brotli.compress(data)
            open(sys.argv[2], "wb").write(data)
            """
        let scratch = try TemporaryDirectory(prefix: "content-decoding")
        let file = scratch.appending("body").path
        let run = CommandRunner(executable: try PythonTools.tool("python")).run(["-c", script, names, file], stdin: Data(text))
        guard run.succeeded else { throw SetupFailure(message: "\(run)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    @Test(arguments: [("gzip", "gzip"), ("deflate", "deflate"), ("raw", "deflate"), ("br", "br"), ("gzip, br", "gzip, br"),
                      ("gzip", "x-gzip"), ("gzip", "identity, gzip")])
    func everyEncodingDecodesToTheSameBytes(made: String, header: String) throws {
        let body = try Self.encoded(made)
        #expect(try ContentDecoding.decode(body, contentEncoding: header, limit: 1 << 20) == Self.text)
    }

    @Test func chunksOfAnySizeGiveTheSameBytes() throws {
        let body = try Self.encoded("gzip, br")
        for size in [1, 7, 100, 4096] {
            let decoder = try #require(try ContentDecoder(contentEncoding: "gzip, br"))
            var output: [UInt8] = []
            var offset = 0
            while offset < body.count {
                let piece = Array(body[offset..<min(offset + size, body.count)])
                _ = try piece.withUnsafeBytes { buffer throws(ContentDecoder.Failure) in
                    try decoder.decode(buffer) { output.append(contentsOf: $0.bindMemory(to: UInt8.self)); return true }
                }
                offset += size
            }
            #expect(output == Self.text, "chunks of \(size)")
        }
    }

    @Test func noEncodingIsNoDecoder() throws {
        #expect(try ContentDecoder(contentEncoding: "") == nil)
        #expect(try ContentDecoder(contentEncoding: "identity") == nil)
        #expect(try ContentDecoding.decode(Self.text, contentEncoding: " identity ", limit: 10) == Self.text)
    }

    @Test func whatCannotBeDecodedSaysWhy() throws {
        #expect(throws: ContentDecoding.Failure.undecodable("Unrecognized content encoding type: zstd")) {
            try ContentDecoding.decode(Self.text, contentEncoding: "zstd", limit: 1 << 20)
        }
        #expect(throws: ContentDecoding.Failure.self) {
            try ContentDecoding.decode(Array("not gzip at all".utf8), contentEncoding: "gzip", limit: 1 << 20)
        }
        #expect(throws: ContentDecoding.Failure.tooLarge(limit: 1000)) {
            try ContentDecoding.decode(try Self.encoded("gzip"), contentEncoding: "gzip", limit: 1000)
        }
    }
}
