/// One client connection's state; owned and touched only by the event-loop thread.
final class Connection {
    let id: UInt64
    let descriptor: Int32
    let remoteAddress: String
    var tls: TLSSession?
    var parser: HTTPRequestParser
    var output = OutputQueue()
    /// The epoll interest currently registered.
    var interest: UInt32 = 0

    let acceptedAt: UInt64
    var lastActivity: UInt64
    var lastWriteProgress: UInt64
    /// When the bytes of the request now being received started to arrive.
    var partialSince: UInt64?
    var requestCount = 0

    /// A response ends the connection: close once the output is written.
    var closeAfterFlush = false
    /// The client sent EOF.
    var peerClosed = false
    /// A ``MissHandler`` is working on this connection's current request.
    var awaitingMiss = false
    /// The last TLS read asked for writability (a key update or renegotiation).
    var tlsReadWantsWrite = false
    /// The last TLS handshake step wants writability.
    var tlsHandshakeWantsWrite = false
    /// After the last response: write side shut, reading and discarding until EOF or this time.
    var lingerUntil: UInt64?
    var lingerDiscarded = 0

    init(id: UInt64, descriptor: Int32, remoteAddress: String, limits: HTTPParserLimits, now: UInt64) {
        self.id = id
        self.descriptor = descriptor
        self.remoteAddress = remoteAddress
        self.parser = HTTPRequestParser(limits: limits)
        acceptedAt = now
        lastActivity = now
        lastWriteProgress = now
    }

    /// Whether the connection should not read or parse more requests for now.
    var readPaused: Bool {
        awaitingMiss || closeAfterFlush || peerClosed || output.isBackpressured
    }

    /// Whether nothing is in progress (safe to close at shutdown).
    var isIdle: Bool {
        output.isEmpty && !awaitingMiss && !parser.hasPartialRequest && (tls?.handshakeComplete ?? true)
    }

    /// When this connection is dropped if nothing happens, in monotonic nanoseconds.
    func deadline(header: UInt64, keepAlive: UInt64, write: UInt64) -> UInt64 {
        if let lingerUntil { return lingerUntil }
        if awaitingMiss { return .max }
        if let tls, !tls.handshakeComplete { return acceptedAt &+ header }
        if !output.isEmpty { return lastWriteProgress &+ write }
        if let partialSince { return partialSince &+ header }
        if requestCount == 0 { return acceptedAt &+ header }
        return lastActivity &+ keepAlive
    }
}
