import CCurl

/// How many connections to one host an engine lets libcurl open
/// (`CURLMOPT_MAX_HOST_CONNECTIONS`), from what its responses have shown so far.
///
/// Over HTTP/1.x a connection carries one transfer at a time, so the configured limit is the
/// concurrency, and it stays. Over HTTP/2 one connection carries up to
/// ``streamsPerConnection`` transfers, and more connections only cost handshakes: libcurl 7.88,
/// when its connections are at their stream limit, opens a new connection for every waiting
/// transfer (with or without `CURLOPT_PIPEWAIT`), each of which then carries that one transfer.
/// A crawl with 256 transfers in flight opened 32 connections to nginx, 29 of them for one
/// request each: 29 more mutual-TLS handshakes, on both sides, just as the crawl gathers speed.
/// So once every response has come over HTTP/2, the limit is what the transfers in flight need,
/// plus one, and never more than configured. A single HTTP/1.x response restores the
/// configured limit for good (the engine may serve several hosts; one of them speaks HTTP/1.x).
///
/// A server may allow fewer streams per connection than ``streamsPerConnection`` (its
/// `SETTINGS_MAX_CONCURRENT_STREAMS`, which libcurl 7.88 does not expose). The engine then sees
/// requests wait for a connection while every connection the limit allows is open and busy
/// (``saturatedConnectionStreams(waiting:streamsByConnection:limit:)``).
/// ``observeServerStreamLimit(_:)`` takes what the least busy of them carries as the streams
/// per connection from then on, so the limit grows back towards the configured one.
struct HostConnectionPolicy: Sendable, Equatable {
    /// Concurrent streams per HTTP/2 connection (`CURLMOPT_MAX_CONCURRENT_STREAMS`, set to this
    /// value on the engine's multi handle; nginx allows 128 by default).
    static let streamsPerConnection = 100

    /// The limit the user configured (`--per-host`).
    let configured: Int
    private(set) var sawHTTP1 = false
    private(set) var sawHTTP2 = false
    /// The streams one connection carries: ``streamsPerConnection``, or fewer once a server was
    /// seen to allow fewer.
    private(set) var streamCapacity = Self.streamsPerConnection

    init(configured: Int) {
        self.configured = max(1, configured)
    }

    /// Records the HTTP version of a response (`CURLINFO_HTTP_VERSION`; 0, unknown, is ignored).
    mutating func observe(httpVersion: Int) {
        switch httpVersion {
        case Int(CURL_HTTP_VERSION_1_0), Int(CURL_HTTP_VERSION_1_1): sawHTTP1 = true
        case Int(CURL_HTTP_VERSION_2_0), Int(CURL_HTTP_VERSION_3): sawHTTP2 = true
        default: break
        }
    }

    /// Whether the policy may hold the limit below the configured one (every response so far
    /// came over HTTP/2).
    var adaptsToStreams: Bool { sawHTTP2 && !sawHTTP1 }

    /// Records that a server allows only `streams` requests at a time on one connection.
    mutating func observeServerStreamLimit(_ streams: Int) {
        streamCapacity = max(1, min(streamCapacity, streams))
    }

    /// The per-host connection limit for `activeTransfers` transfers in flight.
    func limit(activeTransfers: Int) -> Int {
        guard adaptsToStreams else { return configured }
        let needed = (activeTransfers + streamCapacity - 1) / streamCapacity + 1
        return min(configured, max(2, needed))
    }

    /// The streams the server allows per connection, as one moment of the engine shows it; nil
    /// when it shows nothing about that.
    ///
    /// Requests wait (`waiting`, added but not yet sent) although every connection the limit
    /// allows is open and carries requests (`streamsByConnection`, one count per connection):
    /// libcurl places a request on any connection with a free stream, so it counts each of them
    /// as full. Fewer connections than the limit means a connection is still being set up: the
    /// wait says nothing.
    ///
    /// The least busy connection shows the server's limit. A busier one got requests before
    /// the server's SETTINGS frame arrived, when libcurl assumed 100 streams (nghttp2 then
    /// holds the excess back): with nginx at 10 streams, connections carried 10, 10 and 29.
    /// A connection that drains after a GOAWAY (nginx sends one after 1,000 requests), or one
    /// just opened, may show less than the limit while a request or two wait for a moment; so
    /// at least as many requests as that connection carries must wait. A low estimate would
    /// cost connections (never more than configured), not transfers.
    /// - Returns: that number, when it is below ``streamsPerConnection``.
    static func saturatedConnectionStreams(waiting: Int, streamsByConnection: [Int], limit: Int) -> Int? {
        guard waiting > 0, streamsByConnection.count >= limit,
              let least = streamsByConnection.min(), least > 0, least < streamsPerConnection,
              waiting >= least else { return nil }
        return least
    }
}
