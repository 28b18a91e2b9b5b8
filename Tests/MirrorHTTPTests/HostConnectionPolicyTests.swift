import CCurl
import Testing
@testable import MirrorHTTP

/// The per-host connection limit an engine sets from the HTTP versions it has seen.
@Suite("Host connection policy")
struct HostConnectionPolicyTests {
    static let http1 = Int(CURL_HTTP_VERSION_1_1)
    static let http2 = Int(CURL_HTTP_VERSION_2_0)

    @Test("before any response, and over HTTP/1.x, the configured limit holds")
    func configuredUntilHTTP2IsSeen() {
        var policy = HostConnectionPolicy(configured: 32)
        #expect(policy.limit(activeTransfers: 256) == 32)
        policy.observe(httpVersion: 0)  // a failed transfer: no version
        #expect(policy.limit(activeTransfers: 256) == 32)
        policy.observe(httpVersion: Self.http1)
        #expect(policy.limit(activeTransfers: 256) == 32)
        policy.observe(httpVersion: Self.http2)  // one host of the engine still speaks HTTP/1.1
        #expect(policy.limit(activeTransfers: 256) == 32)
        var old = HostConnectionPolicy(configured: 32)
        old.observe(httpVersion: Int(CURL_HTTP_VERSION_1_0))
        old.observe(httpVersion: Self.http2)
        #expect(old.limit(activeTransfers: 256) == 32)
    }

    @Test("over HTTP/2 only: the connections the streams need, plus one, within the configured limit",
          arguments: [(0, 32, 2), (1, 32, 2), (100, 32, 2), (101, 32, 3), (256, 32, 4), (1_000, 32, 11),
                      (5_000, 32, 32), (256, 3, 3), (256, 1, 1), (256, 0, 1)])
    func http2NeedsFewConnections(active: Int, configured: Int, expected: Int) {
        var policy = HostConnectionPolicy(configured: configured)
        policy.observe(httpVersion: Self.http2)
        #expect(policy.limit(activeTransfers: active) == expected)
        policy.observe(httpVersion: Int(CURL_HTTP_VERSION_3))
        #expect(policy.limit(activeTransfers: active) == expected)
    }
}
