#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A loopback TCP listener and a UDP socket on the same port that count every connection
/// and datagram they receive: the witness of a test that proves a browser reached nothing.
///
/// A thread accepts connections (and reads their first bytes, to show what was sent) until
/// ``stop()``; another receives datagrams.
public final class ConnectionListener: @unchecked Sendable {
    /// The port, on 127.0.0.1, for TCP and UDP alike.
    public let port: UInt16
    private let tcp: Int32
    private let udp: Int32
    private let lock = NSLock()
    private var connections: [String] = []
    private var datagrams = 0
    private var stopped = false

    /// Binds both sockets on a free port and starts counting.
    /// - Throws: ``FreePort/Failure`` when a socket call fails.
    public init() throws {
        var attempt = 0
        while true {
            attempt += 1
            let port = try FreePort.reserve()
            let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            var yes: Int32 = 1
            setsockopt(tcp, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(tcp, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                        && bind(udp, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            if bound, listen(tcp, 64) == 0 {
                self.port = port
                self.tcp = tcp
                self.udp = udp
                break
            }
            close(tcp)
            close(udp)
            if attempt >= 8 { throw FreePort.Failure.socketCall(call: "bind", errno: errno) }
        }
        Thread { [self] in acceptLoop() }.start()
        Thread { [self] in receiveLoop() }.start()
    }

    deinit { stop() }

    /// Every TCP connection so far, as the first bytes the client sent (empty when it sent none).
    public var tcpConnections: [String] {
        lock.lock()
        defer { lock.unlock() }
        return connections
    }

    /// UDP datagrams received so far.
    public var udpDatagrams: Int {
        lock.lock()
        defer { lock.unlock() }
        return datagrams
    }

    /// Connections plus datagrams.
    public var total: Int { tcpConnections.count + udpDatagrams }

    /// Closes both sockets; the threads end.
    public func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        guard !already else { return }
        shutdown(tcp, Int32(SHUT_RDWR))
        shutdown(udp, Int32(SHUT_RDWR))
        close(tcp)
        close(udp)
    }

    private func acceptLoop() {
        while true {
            let client = accept(tcp, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 200)
            let count = read(client, &buffer, buffer.count)
            let first = count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
            close(client)
            lock.lock()
            connections.append(first.split(separator: "\r\n").first.map(String.init) ?? first)
            lock.unlock()
        }
    }

    private func receiveLoop() {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = recv(udp, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                lock.lock()
                let done = stopped
                lock.unlock()
                if done { return }
                continue
            }
            lock.lock()
            datagrams += 1
            lock.unlock()
        }
    }
}
