#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A TCP listener that only counts the connections it gets, to prove that nothing connected:
/// a host a mirror must never reach (another loopback address an origin redirects to), or
/// anything a browser must not reach on its own.
///
/// It accepts on a thread of its own, closes each connection at once, and stops when
/// ``stop()`` is called or the counter is released.
public final class ConnectionCounter: @unchecked Sendable {
    /// The address it listens on.
    public let host: String
    /// The port it listens on.
    public let port: UInt16
    private let descriptor: Int32
    private let count = LockedBox(0)
    private let stopped = LockedBox(false)

    /// Listens on `host:port` (port 0: one the kernel picks).
    /// - Throws: ``FreePort/Failure/socketCall(call:errno:)`` when the address cannot be bound
    ///   (busy, or not a local address).
    public init(host: String = "127.0.0.1", port: UInt16 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FreePort.Failure.socketCall(call: "socket", errno: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(fd)
            throw FreePort.Failure.socketCall(call: "inet_pton(\(host))", errno: EINVAL)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw FreePort.Failure.socketCall(call: "bind/listen \(host):\(port)", errno: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.host = host
        self.port = UInt16(bigEndian: address.sin_port)
        descriptor = fd
        let thread = Thread { [count, stopped] in
            while !stopped.withLock({ $0 }) {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let client = accept(fd, nil, nil)
                if client >= 0 {
                    count.withLock { $0 += 1 }
                    close(client)
                }
            }
            close(fd)
        }
        thread.start()
    }

    deinit { stop() }

    /// The connections accepted so far.
    public var connections: Int { count.withLock { $0 } }

    /// Stops listening (the socket closes within 100 ms).
    public func stop() {
        stopped.withLock { $0 = true }
    }
}
