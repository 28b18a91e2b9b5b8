#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MirrorCore

/// Loopback TCP ports for test servers.
///
/// ``allocate()`` asks the kernel for a free port by binding a socket to `127.0.0.1:0`,
/// reading the port it got and closing the socket. A port is never handed out twice in one
/// test process, which keeps parallel fixtures apart; another process can still take it in
/// the gap before the server binds, so servers retry on "address in use".
public enum FreePort {
    /// Why no port could be obtained.
    public enum Failure: DiagnosableError {
        /// A socket call failed; `call` names it, `errno` is its error number.
        case socketCall(call: String, errno: Int32)
        /// The kernel kept returning ports this process had already handed out.
        case exhausted(attempts: Int)

        public var category: ErrorCategory { .network }
        public var summary: String {
            switch self {
            case .socketCall(let call, let code):
                "\(call) on 127.0.0.1 failed: \(String(cString: strerror(code))) (errno \(code))"
            case .exhausted(let attempts):
                "no fresh loopback port after \(attempts) attempts"
            }
        }
        public var hint: String { "check that the loopback interface is up" }
    }

    private static let handedOut = LockedBox<Set<UInt16>>([])

    /// A free loopback port that this process has not handed out before.
    ///
    /// Stops the test process with a message when the loopback interface is unusable, which
    /// no test can recover from; use ``reserve()`` to handle that case yourself.
    public static func allocate() -> UInt16 {
        do {
            return try reserve()
        } catch {
            fatalError("FreePort.allocate: \(error)")
        }
    }

    /// A free loopback port that this process has not handed out before.
    ///
    /// - Throws: ``Failure/socketCall(call:errno:)`` when a socket call fails,
    ///   ``Failure/exhausted(attempts:)`` when only already-used ports come back.
    public static func reserve() throws -> UInt16 {
        let attempts = 64
        for _ in 0..<attempts {
            let port = try kernelAssignedPort()
            let isNew = handedOut.withLock { $0.insert(port).inserted }
            if isNew { return port }
        }
        throw Failure.exhausted(attempts: attempts)
    }

    /// Whether something on `127.0.0.1:port` accepts a TCP connection right now.
    ///
    /// - Parameters:
    ///   - port: The loopback port to try.
    public static func isAccepting(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, streamSocketType, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    private static func kernelAssignedPort() throws -> UInt16 {
        let fd = socket(AF_INET, streamSocketType, 0)
        guard fd >= 0 else { throw Failure.socketCall(call: "socket", errno: errno) }
        defer { close(fd) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure.socketCall(call: "bind", errno: errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure.socketCall(call: "getsockname", errno: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    #if canImport(Glibc)
    private static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamSocketType = SOCK_STREAM
    #endif
}
