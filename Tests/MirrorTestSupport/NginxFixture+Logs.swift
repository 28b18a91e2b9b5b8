import Foundation

extension NginxFixture {
    /// One line of the fixture's access log.
    public struct AccessLogEntry: Sendable, Equatable {
        /// The port of the server block that answered, see ``NginxFixture/port(_:)``.
        public var port: UInt16
        /// The request line, such as `GET /a.css HTTP/2.0`.
        public var request: String
        /// The response status nginx sent.
        public var status: Int
        /// The client certificate's subject (RFC 2253), empty when none was sent.
        public var clientSubject: String
        /// nginx's connection serial number: equal numbers mean a reused connection.
        public var connection: Int
        /// How many requests this connection had carried, this one included.
        public var connectionRequests: Int

        /// The request's method, such as `GET`.
        public var method: String { request.split(separator: " ").first.map(String.init) ?? "" }
        /// The request's target (path and query), such as `/a.css?v=1`.
        public var target: String {
            let parts = request.split(separator: " ")
            return parts.count > 1 ? String(parts[1]) : ""
        }

        /// Parses one tab-separated line; `nil` when it does not have the fixture's fields.
        ///
        /// - Parameters:
        ///   - line: A line of `access.log`.
        public init?(line: Substring) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, let port = UInt16(fields[0]), let status = Int(fields[2]),
                let connection = Int(fields[4]), let requests = Int(fields[5])
            else { return nil }
            self.port = port
            self.request = String(fields[1])
            self.status = status
            self.clientSubject = fields[3] == "-" ? "" : String(fields[3])
            self.connection = connection
            self.connectionRequests = requests
        }
    }

    /// The raw access log of every server block: one tab-separated line per request with
    /// `$server_port $request $status $ssl_client_s_dn $connection $connection_requests`.
    public func accessLog() -> String {
        (try? String(contentsOf: URL(fileURLWithPath: configuration.accessLog), encoding: .utf8)) ?? ""
    }

    /// The parsed access log, optionally for one server block.
    ///
    /// nginx writes a line just after it sends the response, so a client can finish before
    /// the line exists. Pass `atLeast` to wait (up to `timeout` seconds) for that many entries.
    ///
    /// ```swift
    /// let hits = nginx.accessLogEntries(for: .mtls, atLeast: 2) { $0.target == "/a.css" }
    /// ```
    ///
    /// - Parameters:
    ///   - server: Only entries of this block; all blocks when `nil`.
    ///   - atLeast: How many matching entries to wait for.
    ///   - timeout: The longest wait, in seconds.
    ///   - predicate: Only entries for which this is true.
    public func accessLogEntries(
        for server: Server? = nil, atLeast: Int = 0, timeout: TimeInterval = 3,
        where predicate: (AccessLogEntry) -> Bool = { _ in true }
    ) -> [AccessLogEntry] {
        let port = server.map { self.port($0) }
        return waitForLines(atLeast: atLeast, timeout: timeout) {
            self.accessLog().split(separator: "\n").compactMap(AccessLogEntry.init(line:))
                .filter { (port == nil || $0.port == port) && predicate($0) }
        }
    }

    /// The client-certificate subjects that the ``Server/plainTLS`` block saw, one per request
    /// in order; an empty string for a request without a client certificate.
    ///
    /// - Parameters:
    ///   - atLeast: How many entries to wait for (see ``accessLogEntries(for:atLeast:timeout:where:)``).
    ///   - timeout: The longest wait, in seconds.
    public func loggedClientSubjects(atLeast: Int = 0, timeout: TimeInterval = 3) -> [String] {
        waitForLines(atLeast: atLeast, timeout: timeout) {
            let url = URL(fileURLWithPath: self.configuration.clientSubjectsLog)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0 == "-" ? "" : String($0) }
        }
    }

    /// nginx's error log (startup problems, TLS handshake failures at `info` and above).
    public func errorLog() -> String {
        (try? String(contentsOf: URL(fileURLWithPath: configuration.errorLog), encoding: .utf8)) ?? ""
    }

    private func waitForLines<T>(atLeast: Int, timeout: TimeInterval, read: () -> [T]) -> [T] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines = read()
        while lines.count < atLeast && Date() < deadline {
            usleep(20_000)
            lines = read()
        }
        return lines
    }
}
