import Foundation
import MirrorTestSupport
import Testing

/// Bad input recorded as what it was, within the limits, and never a damaged file: a 1 GiB body,
/// a response cut short, a stalled one and a gzip bomb from `scripts/hostile-origin.py`.
@Suite(.serialized) struct ArchiveHostileTests {
    @Test func hostileResponsesAreRecordedAsTruncatedAndTheFileStaysWhole() throws {
        let origin = try HostileOrigin()
        let output = try origin.scratchDirectory(named: "archive-out")
        let runner = CommandRunner(executable: CommandRunner.builtBinary(named: "mtls-mirror"))
        let paths = ["/normal/a.html", "/huge.bin", "/short.html", "/stall.html", "/bomb.html"]
        let result = runner.run(
            ["mirror"] + paths.map { origin.url($0) } + ["-o", output.path, "--name", "site", "--depth", "0", "--warc",
             "--cacert", origin.pki.path("server-root.pem"), "--cert", origin.pki.path("client.p12"), "--pass-env", "HOSTILE_PASS",
             "--max-file-size", "20MiB", "--idle-timeout", "2", "--retry", "0", "--ignore-robots"],
            environment: ["HOSTILE_PASS": origin.pki.password, "NO_COLOR": "1"], timeout: 120)
        #expect(result.exitCode == 10, "published, some URLs failed: \(result)")
        let archive = output.path + "/site/archive"
        let warcs = try FileManager.default.contentsOfDirectory(atPath: archive).filter { $0.hasSuffix(".warc.gz") }.map { archive + "/" + $0 }
        let listing = try FileManager.default.contentsOfDirectory(atPath: archive)
        #expect(warcs.count == 1 && !listing.contains { $0.hasSuffix(".open") }, "\(listing)")
        let check = try PythonTools.runner("warcio").run(["check", "-v"] + warcs)
        #expect(check.exitCode == 0, "every digest matches what was recorded: \(check)")

        let responses = Dictionary(try WARCAudit.audit(warcs).records.filter { $0.type == "response" }.map { ($0.field("WARC-Target-URI") ?? "", $0) },
                                   uniquingKeysWith: { a, _ in a })
        let normal = try #require(responses[origin.url("/normal/a.html")])
        #expect(normal.field("WARC-Truncated") == nil && normal.status == 200)
        // Content-Length 1 GiB over the 20 MiB limit: refused before the body, recorded as such.
        let huge = try #require(responses[origin.url("/huge.bin")])
        #expect(huge.field("WARC-Truncated") == "length" && huge.payloadLength == 0 && huge.httpField("Content-Length") == "1073741824")
        // 103 bytes of a declared 10,000, then the connection closed.
        let short = try #require(responses[origin.url("/short.html")])
        #expect(short.field("WARC-Truncated") == "disconnect" && short.payloadLength == 103, "\(short.fields)")
        // Headers, then nothing until the idle timeout.
        let stall = try #require(responses[origin.url("/stall.html")])
        #expect(stall.field("WARC-Truncated") == "time" && stall.payloadLength == 0, "\(stall.fields)")
        // A gzip bomb: what arrived before the ratio guard stopped it, still compressed.
        let bomb = try #require(responses[origin.url("/bomb.html")])
        #expect(bomb.field("WARC-Truncated") == "unspecified" && bomb.httpField("Content-Encoding") == "gzip", "\(bomb.fields)")
        #expect(bomb.payloadStart.hasPrefix("1f8b") && bomb.payloadLength > 0 && bomb.payloadLength < 20 << 20)
        for record in [huge, short, stall, bomb] { #expect(record.digestsPassed == true) }
    }
}
