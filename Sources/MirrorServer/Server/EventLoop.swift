import Foundation
import CMirrorShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The single-threaded epoll loop: accepts, reads, parses, responds, writes, times out.
///
/// Level-triggered epoll; interest is switched per connection (``Connection/interest``):
/// reading stops while a connection is paused (awaiting a miss, closing, or above the output
/// high-water mark) and EPOLLOUT is asked for only while output is queued. Every wake-up
/// starts a new ``Responder`` epoch (`current` re-read, remembered files forgotten), and so
/// does every mailbox drain. Everything here runs on the loop thread; other threads talk to it
/// only through ``Mailbox``.
final class EventLoop: @unchecked Sendable {
    static let listenerID: UInt64 = 0
    static let wakeID: UInt64 = 1

    let configuration: ServerConfiguration
    let responder: Responder
    let tlsContext: ServerTLSContext?
    let epollDescriptor: Int32
    let mailbox: Mailbox
    var listener: Int32
    var listenerPaused = false
    var connections: [UInt64: Connection] = [:]
    var nextID: UInt64 = 2
    var stopping = false
    var stopDeadline: UInt64 = 0
    var now: UInt64 = monotonicNow()
    var nextSweep: UInt64 = 0
    let scratch: UnsafeMutableRawBufferPointer
    private var dateSecond: Int = -1
    private var dateText: [UInt8] = []
    private let finished = DispatchSemaphore(value: 0)

    let headerTimeout: UInt64
    let keepAliveTimeout: UInt64
    let writeTimeout: UInt64

    init(configuration: ServerConfiguration, listener: Int32, tlsContext: ServerTLSContext?) throws(ServerError) {
        self.configuration = configuration
        self.listener = listener
        self.tlsContext = tlsContext
        responder = Responder(configuration: configuration)
        headerTimeout = configuration.headerTimeout.nanoseconds
        keepAliveTimeout = configuration.keepAliveTimeout.nanoseconds
        writeTimeout = configuration.writeTimeout.nanoseconds
        guard let mailbox = Mailbox() else {
            throw .socketFailed(operation: "eventfd", address: configuration.host, errno: errno)
        }
        self.mailbox = mailbox
        let epoll = CMirrorShims_epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .socketFailed(operation: "epoll_create1", address: configuration.host, errno: errno) }
        epollDescriptor = epoll
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        guard register(listener, id: Self.listenerID, events: CMirrorShims_EPOLLIN()),
              register(mailbox.wakeDescriptor, id: Self.wakeID, events: CMirrorShims_EPOLLIN())
        else { throw .socketFailed(operation: "epoll_ctl", address: configuration.host, errno: errno) }
    }

    deinit {
        for connection in connections.values { destroy(connection) }
        if listener >= 0 { _ = close(listener) }
        _ = close(epollDescriptor)
        scratch.deallocate()
    }

    /// Blocks until ``run()`` has returned.
    func waitUntilFinished() { finished.wait() }

    /// The loop; returns after a stop once every connection is closed (or the grace period ended).
    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let count = CMirrorShims_epoll_wait(epollDescriptor, &events, Int32(events.count), 100)
            if count < 0, errno != EINTR { break }
            now = monotonicNow()
            responder.advanceEpoch()
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                switch event.data.u64 {
                case Self.listenerID: acceptConnections()
                case Self.wakeID: handleMessages()
                default:
                    if let connection = connections[event.data.u64] { handle(connection, events: event.events) }
                }
            }
            if now >= nextSweep { sweep() }
            if stopping, connections.isEmpty || now >= stopDeadline { break }
        }
        for connection in connections.values { destroy(connection) }
        finished.signal()
    }

    // MARK: Registration

    @discardableResult
    func register(_ fd: Int32, id: UInt64, events: UInt32) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = id
        return CMirrorShims_epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, fd, &event) == 0
    }

    func modify(_ connection: Connection, events: UInt32) {
        guard connection.interest != events else { return }
        var event = epoll_event()
        event.events = events
        event.data.u64 = connection.id
        if CMirrorShims_epoll_ctl(epollDescriptor, EPOLL_CTL_MOD, connection.descriptor, &event) == 0 {
            connection.interest = events
        }
    }

    // MARK: Accepting

    func acceptConnections() {
        guard !stopping else { return }
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    CMirrorShims_accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                }
            }
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE {
                    // Out of descriptors: stop polling the listener until the next sweep.
                    var event = epoll_event()
                    _ = CMirrorShims_epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, listener, &event)
                    listenerPaused = true
                }
                return
            }
            if connections.count >= configuration.maxConnections {
                let busy = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 1\r\n\r\n".utf8)
                _ = busy.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                _ = close(fd)
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let id = nextID
            nextID += 1
            let connection = Connection(
                id: id, descriptor: fd, remoteAddress: SocketAddress.describe(storage).host,
                limits: configuration.parserLimits, now: now)
            if let tlsContext {
                guard let session = TLSSession(context: tlsContext, descriptor: fd) else {
                    _ = close(fd)
                    continue
                }
                connection.tls = session
            }
            guard register(fd, id: id, events: CMirrorShims_EPOLLIN()) else {
                connection.tls = nil
                _ = close(fd)
                continue
            }
            connection.interest = CMirrorShims_EPOLLIN()
            connections[id] = connection
        }
    }

    // MARK: Messages, timers, stop

    func handleMessages() {
        let messages = mailbox.drain()
        // A miss handler stores its file before posting: look again for what it stored.
        responder.advanceEpoch()
        for message in messages {
            switch message {
            case .stop:
                beginStop()
            case .missCompleted(let id, let result, let request, let site, let path):
                guard let connection = connections[id] else { continue }
                connection.awaitingMiss = false
                let response: Response
                switch result {
                case .notFound:
                    let segments = path.split(separator: "/").map(String.init)
                    let prefix: [String] = if case .several = configuration.layout { [site] } else { [] }
                    response = responder.notFound(RequestPath(segments: prefix + segments, trailingSlash: false))
                case .response(let status, let headers, let body):
                    response = Response(status: status, headers: headers, body: .bytes(body))
                case .retry:
                    switch responder.respond(to: request, allowMiss: false) {
                    case .response(let served): response = served
                    case .miss: response = responder.notFound(RequestPath(segments: path.split(separator: "/").map(String.init), trailingSlash: false))
                    }
                }
                enqueue(response, on: connection, request: request)
                service(connection)
            }
        }
    }

    func beginStop() {
        guard !stopping else { return }
        stopping = true
        stopDeadline = now &+ configuration.shutdownGracePeriod.nanoseconds
        if listener >= 0 {
            var event = epoll_event()
            _ = CMirrorShims_epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, listener, &event)
            _ = close(listener)
            listener = -1
        }
        for connection in connections.values where connection.isIdle || connection.lingerUntil != nil {
            destroy(connection)
        }
    }

    func sweep() {
        nextSweep = now &+ 100_000_000
        if listenerPaused, !stopping, listener >= 0, register(listener, id: Self.listenerID, events: CMirrorShims_EPOLLIN()) {
            listenerPaused = false
        }
        for connection in Array(connections.values) {
            let deadline = connection.deadline(header: headerTimeout, keepAlive: keepAliveTimeout, write: writeTimeout)
            if now >= deadline { destroy(connection) }
        }
    }

    /// The `Date` and `Server` header lines, formatted once per second.
    var dateLines: [UInt8] {
        let second = time(nil)
        if second != dateSecond {
            dateSecond = second
            dateText = Response.dateLines(HTTPDate.format(Int64(second)))
        }
        return dateText
    }
}
