#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IPv4 or IPv6 address with a port, ready for `bind`.
struct SocketAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
    var family: Int32 = AF_INET
    /// Whether the address is in 127.0.0.0/8 or is ::1.
    var isLoopback = false
    /// The port, host byte order.
    var port: UInt16 = 0

    /// Parses `host` (`localhost`, dotted IPv4, or IPv6 with or without brackets).
    init?(host: String, port: UInt16) {
        self.port = port
        var text = host == "localhost" ? "127.0.0.1" : host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            isLoopback = UInt32(bigEndian: v4.sin_addr.s_addr) >> 24 == 127
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: v4) { target.copyMemory(from: $0) }
            }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            family = AF_INET
            return
        }
        var v6 = sockaddr_in6()
        guard inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 else { return nil }
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = port.bigEndian
        isLoopback = withUnsafeBytes(of: v6.sin6_addr) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: v6) { target.copyMemory(from: $0) }
        }
        length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        family = AF_INET6
    }

    /// The numeric text of an address returned by `accept`/`getsockname`, and its port.
    static func describe(_ storage: sockaddr_storage) -> (host: String, port: UInt16) {
        var copy = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(copy.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var address = v4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
                    return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), UInt16(bigEndian: v4.pointee.sin_port))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var address = v6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
                    return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), UInt16(bigEndian: v6.pointee.sin6_port))
                }
            }
        default:
            return ("-", 0)
        }
    }
}
