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

    @Test("requests that wait while every allowed connection is busy show the server's stream limit",
          arguments: [
              // waiting, requests per connection, limit, expected
              (40, [10, 10, 10], 3, 10),     // nginx with http2_max_concurrent_streams 10
              (40, [10, 29, 10], 3, 10),     // 29 were placed before the server's SETTINGS arrived
              (40, [10, 7, 10], 3, 7),       // one drains after a GOAWAY: a low estimate, more connections
              (1, [1, 1], 2, 1),             // a server that allows one stream
              (0, [10, 10, 10], 3, nil),     // nothing waits: the connections suffice
              (40, [10, 10], 3, nil),        // a third connection is still being set up
              (40, [], 2, nil),              // no connection yet
              (40, [100, 100, 100], 3, nil), // full at the policy's own stream limit: nothing learnt
              (40, [120, 100], 2, nil),      // at or above what the policy asks for
              (1, [64, 96, 14], 3, nil),     // one request waits a moment beside a connection that drains
              (5, [10, 10, 10], 3, nil),     // fewer wait than one more connection would carry
          ] as [(Int, [Int], Int, Int?)])
    func saturatedConnections(waiting: Int, streams: [Int], limit: Int, expected: Int?) {
        #expect(HostConnectionPolicy.saturatedConnectionStreams(
            waiting: waiting, streamsByConnection: streams, limit: limit) == expected)
    }

    @Test("a server that allows fewer streams per connection gets more connections, never more than configured")
    func fewerStreamsMoreConnections() {
        var policy = HostConnectionPolicy(configured: 16)
        policy.observe(httpVersion: Self.http2)
        #expect(policy.limit(activeTransfers: 256) == 4)
        policy.observeServerStreamLimit(10)
        #expect(policy.streamCapacity == 10)
        #expect(policy.limit(activeTransfers: 100) == 11)
        #expect(policy.limit(activeTransfers: 256) == 16)
        // A later, higher reading does not undo a lower one; zero counts as one.
        policy.observeServerStreamLimit(50)
        #expect(policy.streamCapacity == 10)
        policy.observeServerStreamLimit(0)
        #expect(policy.streamCapacity == 1)
        #expect(policy.limit(activeTransfers: 3) == 4)
        // Over HTTP/1.x the configured limit holds whatever was learnt.
        policy.observe(httpVersion: Self.http1)
        #expect(policy.limit(activeTransfers: 3) == 16)
    }
}
