import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client for tests: sends raw bytes, reads HTTP/1.1 responses.
final class RawClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    let fd: Int32
    private var pending: [UInt8] = []

    init?(port: UInt16, timeout: Double = 5) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Reads more bytes; false on EOF, error or timeout.
    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        pending.append(contentsOf: buffer[0..<count])
        return true
    }

    /// Reads one response; `nil` when the connection closed or timed out first.
    func readResponse(isHead: Bool = false) -> Reply? {
        var headEnd: Int?
        while headEnd == nil {
            if let range = pending.firstRange(of: Array("\r\n\r\n".utf8)) { headEnd = range.upperBound; break }
            guard fill() else { return nil }
        }
        guard let end = headEnd else { return nil }
        let lines = String(decoding: pending[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        pending.removeFirst(end)
        let length = (isHead || status == 304) ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while pending.count < length {
            guard fill() else { return nil }
        }
        let body = Array(pending[0..<length])
        pending.removeFirst(length)
        return Reply(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (EOF) within the receive timeout.
    func waitForClose() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// One GET on a fresh connection.
    static func get(_ path: String, port: UInt16, headers: String = "") -> Reply? {
        guard let client = RawClient(port: port) else { return nil }
        client.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)Connection: close\r\n\r\n")
        return client.readResponse()
    }
}
