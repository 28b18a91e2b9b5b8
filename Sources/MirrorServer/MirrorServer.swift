import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local web server of `mtls-mirror serve`: serves mirrored snapshots to a browser.
///
/// One dedicated thread runs a level-triggered epoll loop over non-blocking sockets (see
/// ``EventLoop``); nothing blocks the Swift cooperative pool. HTTP/1.1 with keep-alive and
/// pipelining, header/idle/write deadlines, a connection cap, optional TLS with required
/// client certificates, an optional access token, and a ``MissHandler`` hook for live mode.
///
/// ```swift
/// var configuration = ServerConfiguration(layout: .single(ServedSite(name: "docs", directory: "out/docs")))
/// let server = MirrorServer(configuration: configuration)
/// let port = try server.start()
/// // …
/// server.stop()
/// ```
///
/// `start()` sets `SIGPIPE` to be ignored for the whole process (writes to a closed peer must
/// fail with `EPIPE` instead of killing the process; OpenSSL writes with plain `write`).
public final class MirrorServer: @unchecked Sendable {
    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    private let lock = NSLock()
    private var loop: EventLoop?
    private var boundPort: UInt16?

    /// Creates a stopped server.
    /// - Parameter configuration: what to serve and how.
    public init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    deinit { stop() }

    /// The port the server listens on while running.
    public var port: UInt16? { lock.withLock { boundPort } }

    /// Validates the configuration, binds, and starts the loop thread.
    /// - Returns: the port actually bound (useful with port 0).
    /// - Throws: ``ServerError/alreadyStarted``, ``ServerError/invalidSites(reason:)``,
    ///   ``ServerError/invalidAddress(address:)``, ``ServerError/remoteBindRefused(address:reason:)``
    ///   (non-loopback without `allowRemote` and an access token), ``ServerError/socketFailed(operation:address:errno:)``
    ///   (`bind` with `EADDRINUSE`, …), and the TLS errors of ``ServerTLSConfiguration`` loading:
    ///   ``ServerError/certificateUnreadable(path:reason:)``, ``ServerError/privateKeyUnreadable(path:reason:)``,
    ///   ``ServerError/keyMismatch(certificate:key:)``, ``ServerError/clientCAUnreadable(path:reason:)``.
    @discardableResult
    public func start() throws(ServerError) -> UInt16 {
        lock.lock()
        defer { lock.unlock() }
        guard loop == nil else { throw .alreadyStarted }
        try Self.validate(configuration)
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw .invalidAddress(address: configuration.host)
        }
        if !address.isLoopback {
            guard configuration.allowRemote else {
                throw .remoteBindRefused(address: configuration.host, reason: "not a loopback address and remote access is not allowed")
            }
            guard let token = configuration.accessToken, !token.isEmpty else {
                throw .remoteBindRefused(address: configuration.host, reason: "remote access needs an access token")
            }
        }
        let tlsContext = try configuration.tls.map { (tls) throws(ServerError) in try ServerTLSContext(configuration: tls) }
        signal(SIGPIPE, SIG_IGN)
        let (listener, port) = try Self.listen(on: address, host: configuration.host)
        let loop: EventLoop
        do {
            loop = try EventLoop(configuration: configuration, listener: listener, tlsContext: tlsContext)
        } catch {
            _ = close(listener)
            throw error
        }
        let thread = Thread { loop.run() }
        thread.name = "mtls-mirror-server"
        thread.start()
        self.loop = loop
        boundPort = port
        return port
    }

    /// Stops gracefully and waits: no new connections; idle ones close at once; responses in
    /// progress get up to ``ServerConfiguration/shutdownGracePeriod`` to finish. Does nothing
    /// when not running. Must not be called from a ``MissHandler`` or the access-log callback.
    public func stop() {
        let running: EventLoop? = lock.withLock {
            let current = loop
            loop = nil
            boundPort = nil
            return current
        }
        guard let running else { return }
        running.mailbox.post(.stop)
        running.waitUntilFinished()
    }

    static func validate(_ configuration: ServerConfiguration) throws(ServerError) {
        let names = configuration.sites.map(\.name)
        guard !names.isEmpty else { throw .invalidSites(reason: "no site to serve") }
        guard Set(names).count == names.count else { throw .invalidSites(reason: "a site is named twice") }
        for name in names where name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\\") {
            throw .invalidSites(reason: "\(name.debugDescription) cannot be a URL path segment")
        }
        guard configuration.maxConnections > 0 else { throw .invalidSites(reason: "maxConnections must be positive") }
    }

    static func listen(on address: SocketAddress, host: String) throws(ServerError) -> (Int32, UInt16) {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socketFailed(operation: "socket", address: host, errno: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = address.storage
        let bound = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, address.length) }
        }
        guard bound == 0 else {
            let code = errno
            _ = close(fd)
            throw .socketFailed(operation: "bind", address: "\(host):\(address.port)", errno: code)
        }
        guard Glibc.listen(fd, 1024) == 0 else {
            let code = errno
            _ = close(fd)
            throw .socketFailed(operation: "listen", address: host, errno: code)
        }
        var actual = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            _ = close(fd)
            throw .socketFailed(operation: "getsockname", address: host, errno: code)
        }
        return (fd, SocketAddress.describe(actual).port)
    }
}
