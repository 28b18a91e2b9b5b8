import Foundation
import MirrorCore
import MirrorTestSupport
import MirrorTLS
import Testing
@testable import MirrorHTTP
#if canImport(Glibc)
import Glibc
#endif

/// Captures of exchanges for an archive, against a real nginx requiring client certificates:
/// the body as the server sent it (still compressed), decoded by our own decoder exactly as
/// libcurl decodes it, the request header block as sent, large payloads spooled, and bodies cut
/// short by a limit recorded with the reason.
@Suite(.serialized) struct CaptureTests {
    static let nginx = Result {
        try NginxFixture(.mtls, options: .init(extraServerDirectives: Self.directives))
    }
    static let nginx1 = Result {
        try NginxFixture(.mtls, options: .init(extraServerDirectives: Self.directives, http2: false))
    }
    static let directives = """
        location = /enc/gzip.txt { default_type text/plain; add_header Content-Encoding gzip; }
        location = /enc/zlib.txt { default_type text/plain; add_header Content-Encoding deflate; }
        location = /enc/raw.txt { default_type text/plain; add_header Content-Encoding deflate; }
        location = /enc/br.txt { default_type text/plain; add_header Content-Encoding br; }
        location = /enc/zstd.txt { default_type text/plain; add_header Content-Encoding zstd; }
        location = /enc/bomb.txt { default_type text/plain; add_header Content-Encoding gzip; }
        location = /dynamic.txt { gzip on; gzip_types text/plain; gzip_min_length 1; }
        """
    static let text = String(repeating: "archive me as the server sent me; ", count: 1500)

    /// Writes the encoded files once (python from the test venv: zlib and brotli).
    static func prepare(_ nginx: NginxFixture) throws {
        try nginx.site.write("dynamic.txt", text)
        try nginx.site.write("plain.txt", text)
        let script = """
            import brotli, gzip, sys, zlib
            root, text = sys.argv[1], sys.stdin.buffer.read()
            open(root + "/enc/gzip.txt", "wb").write(gzip.compress(text))
            open(root + "/enc/zlib.txt", "wb").write(zlib.compress(text))
            raw = zlib.compressobj(9, zlib.DEFLATED, -15)
            open(root + "/enc/raw.txt", "wb").write(raw.compress(text) + raw.flush())
            open(root + "/enc/br.txt", "wb").write(brotli.compress(text))
            open(root + "/enc/zstd.txt", "wb").write(b"(not really zstd)" + text)
            open(root + "/enc/bomb.txt", "wb").write(gzip.compress(bytes(20_000_000), 9))
            """
        try FileManager.default.createDirectory(at: nginx.site.root.appendingPathComponent("enc"), withIntermediateDirectories: true)
        let result = CommandRunner(executable: try PythonTools.tool("python"))
            .run(["-c", script, nginx.site.root.path], stdin: Data(text.utf8))
        guard result.succeeded else { throw SetupFailure(message: "could not write the encoded files: \(result)") }
        var noise = [UInt8](repeating: 0, count: 300_000)
        for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: (index &* 2_654_435_761) >> 13) }
        try nginx.site.write("noise.bin", Data(noise))
    }

    struct Setup {
        let nginx: NginxFixture
        let client = HTTPClient()
        let spool: TemporaryDirectory
        let profile: TLSProfile

        init(http2: Bool = true) throws {
            nginx = try (http2 ? CaptureTests.nginx : CaptureTests.nginx1).get()
            try CaptureTests.prepare(nginx)
            spool = try TemporaryDirectory(prefix: "capture-spool")
            let identity = try ClientIdentity.load(certificate: nginx.pki.path("client.p12"), password: nginx.pki.secretPassword)
            profile = TLSProfile(identity: identity, evaluator: DefaultTrustEvaluator(anchors: .files([nginx.pki.path("server-root.pem")])))
        }

        func request(_ path: String, recorder: (any ExchangeRecorder)? = nil) -> HTTPRequest {
            var request = HTTPRequest(url: nginx.url(.mtls, path: path), headers: [("X-Trace", "capture-test")])
            request.capture = CaptureOptions(recorder: recorder, spool: CaptureSpool(folder: spool.path))
            return request
        }

        func file(_ path: String) throws -> [UInt8] {
            Array(try Data(contentsOf: nginx.site.root.appendingPathComponent(path)))
        }

        func spooled() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? []).sorted()
        }
    }

    @Test(arguments: ["/enc/gzip.txt", "/enc/zlib.txt", "/enc/raw.txt", "/enc/br.txt", "/plain.txt"])
    func aBodyStaysAsSentInTheCaptureAndIsDecodedForTheMirror(path: String) async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let response = try await s.client.perform(s.request(path), profile: s.profile)
        let capture = try #require(response.capture)
        #expect(response.status == 200 && capture.status == 200 && capture.truncation == nil)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.text, "decoded by our decoder")
        let sent = try s.file(String(path.dropFirst()))
        #expect(capture.payload == .memory(sent), "the payload is the file's bytes, still encoded")
        #expect(capture.payloadSHA256 == SHA256Digest.hex(sent))
        #expect(response.sha256 == SHA256Digest.hex(Array(Self.text.utf8)))
        let head = String(decoding: capture.responseHead, as: UTF8.self)
        #expect(head.hasPrefix("HTTP/2 200") && head.hasSuffix("\r\n\r\n"), "\(head)")
        #expect(head.contains("content-encoding:") == (path != "/plain.txt"), "\(head)")

        // libcurl's own decoding gives the same body.
        var plain = HTTPRequest(url: s.nginx.url(.mtls, path: path))
        plain.acceptCompression = true
        let reference = try await s.client.perform(plain, profile: s.profile)
        #expect(reference.body == response.body && reference.capture == nil)
    }

    @Test func theRequestIsRecordedAsSentWithTheConnectionsFacts() async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let before = Date()
        let response = try await s.client.perform(s.request("/dynamic.txt"), profile: s.profile)
        let capture = try #require(response.capture)
        let request = String(decoding: capture.requestHead, as: UTF8.self)
        #expect(request.hasPrefix("GET /dynamic.txt HTTP/2\r\n"), "\(request)")
        #expect(request.hasSuffix("\r\n\r\n"))
        #expect(request.contains("Host: localhost:\(s.nginx.port(.mtls))\r\n"))
        // HTTP/2 sends names in lower case (RFC 9113 §8.2.1), and libcurl shows them so.
        #expect(request.contains("accept-encoding: gzip, deflate, br\r\n"), "\(request)")
        #expect(request.contains("x-trace: capture-test\r\n"))
        #expect(capture.remoteIP == "127.0.0.1")
        #expect(capture.httpVersion == "2" && capture.tlsVersion == "TLSv1.3")
        #expect(capture.date >= before.addingTimeInterval(-0.001) && capture.date <= Date())
        #expect(capture.method == "GET" && capture.url == s.nginx.url(.mtls, path: "/dynamic.txt"))
        guard case .memory(let payload) = capture.payload else { Issue.record("expected a payload in memory"); return }
        #expect(payload.starts(with: [0x1F, 0x8B]), "nginx's gzip output, as sent")
        #expect(payload.count < Self.text.utf8.count / 10)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.text)
    }

    @Test func http1ChunkingIsRemovedButNamedInTheHead() async throws {
        let s = try Setup(http2: false)
        defer { s.client.shutdown() }
        let response = try await s.client.perform(s.request("/dynamic.txt"), profile: s.profile)
        let capture = try #require(response.capture)
        let head = String(decoding: capture.responseHead, as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(head)")
        #expect(head.contains("Transfer-Encoding: chunked\r\n") && head.contains("Content-Encoding: gzip\r\n"), "\(head)")
        #expect(capture.httpVersion == "1.1")
        let request = String(decoding: capture.requestHead, as: UTF8.self)
        #expect(request.hasPrefix("GET /dynamic.txt HTTP/1.1\r\n") && request.hasSuffix("\r\n\r\n"))
        #expect(request.contains("Accept-Encoding: gzip, deflate, br\r\n") && request.contains("X-Trace: capture-test\r\n"), "\(request)")
        guard case .memory(let payload) = capture.payload else { Issue.record("expected memory"); return }
        #expect(payload.starts(with: [0x1F, 0x8B]), "de-chunked, still gzip")
        #expect(String(decoding: response.body, as: UTF8.self) == Self.text)
    }

    @Test func aLargePayloadIsSpooledToAPrivateFile() async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let response = try await s.client.perform(s.request("/noise.bin"), profile: s.profile)
        let capture = try #require(response.capture)
        guard case .file(let path, let length) = capture.payload else { Issue.record("expected a spool file"); return }
        #expect(length == 300_000 && path.hasPrefix(s.spool.path + "/"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try s.file("noise.bin")))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(response.body.count == 300_000)
        capture.payload.discardSpoolFile()
        #expect(s.spooled().isEmpty)
    }

    @Test func aRecorderGetsEveryHopAndTheResponseNone() async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let recorder = CollectingRecorder()
        let trust = ServerTrustManager(evaluators: [(pattern: "localhost", evaluator: s.profile.evaluator)])
        let security = SecurityPolicy(identity: s.profile.identity, identityScope: HostScope(["localhost"]), trust: trust)
        let result = try await s.client.fetch(s.request("/redirect?to=/plain.txt", recorder: recorder), security: security)
        #expect(result.response.status == 200 && result.response.capture == nil)
        let captures = recorder.captures
        #expect(captures.map(\.status) == [302, 200])
        #expect(captures.map(\.url) == [s.nginx.url(.mtls, path: "/redirect?to=/plain.txt"), s.nginx.url(.mtls, path: "/plain.txt")])
        #expect(String(decoding: captures[0].responseHead, as: UTF8.self).contains("location: /plain.txt\r\n"))
    }

    @Test func aBodyOverTheSizeLimitIsRecordedAsTruncatedForLength() async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let recorder = CollectingRecorder()
        var request = s.request("/noise.bin", recorder: recorder)
        request.maxBodyBytes = 1000
        await #expect {
            _ = try await s.client.perform(request, profile: s.profile)
        } throws: { error in
            if case HTTPError.bodyTooLarge = error { return true }
            return false
        }
        let capture = try #require(recorder.captures.first)
        #expect(capture.truncation == .length && capture.status == 200)
        #expect(capture.payload.count <= 1000)
        #expect(String(decoding: capture.responseHead, as: UTF8.self).contains("content-length: 300000"))
        #expect(s.spooled().isEmpty, "nothing spooled for a refused body")
    }

    @Test func aDecompressionBombIsStoppedAndRecordedAsWhatArrived() async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let recorder = CollectingRecorder()
        var request = s.request("/enc/bomb.txt", recorder: recorder)
        request.maxDecompressionRatio = 100
        await #expect {
            _ = try await s.client.perform(request, profile: s.profile)
        } throws: { error in
            if case HTTPError.decompressionBomb = error { return true }
            return false
        }
        let capture = try #require(recorder.captures.first)
        #expect(capture.truncation == .unspecified)
        let sent = try s.file("enc/bomb.txt")
        guard case .memory(let payload) = capture.payload else { Issue.record("expected memory"); return }
        #expect(!payload.isEmpty && payload.count <= sent.count && Array(sent.prefix(payload.count)) == payload)
        #expect(capture.payloadSHA256 == SHA256Digest.hex(payload))
    }

    @Test func anEncodingWeCannotDecodeFailsAsLibcurlDoes() async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let recorder = CollectingRecorder()
        await #expect {
            _ = try await s.client.perform(s.request("/enc/zstd.txt", recorder: recorder), profile: s.profile)
        } throws: { error in
            if case HTTPError.network(_, 61, let message) = error { return message.contains("zstd") }
            return false
        }
        #expect(recorder.captures.first?.truncation == .unspecified)
    }

    @Test func withoutCaptureOptionsNothingIsRecorded() async throws {
        let s = try Setup()
        defer { s.client.shutdown() }
        let response = try await s.client.perform(HTTPRequest(url: s.nginx.url(.mtls, path: "/noise.bin")), profile: s.profile)
        #expect(response.capture == nil && response.body.count == 300_000)
        #expect(s.spooled().isEmpty)
    }
}

struct SetupFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Keeps every capture it is given.
final class CollectingRecorder: ExchangeRecorder, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [HTTPCapture] = []
    var captures: [HTTPCapture] { lock.withLock { kept } }
    func record(_ capture: HTTPCapture) async {
        lock.withLock { kept.append(capture) }
    }
}
