import Foundation

/// Turning parsed requests into queued responses, and the miss hand-off.
extension EventLoop {
    /// Parses and answers as many buffered requests as the connection's state allows.
    /// - Returns: whether any request (or parse failure) was handled.
    func processRequests(_ connection: Connection) -> Bool {
        var produced = false
        while !connection.awaitingMiss, !connection.closeAfterFlush, !connection.output.isBackpressured {
            guard let event = connection.parser.next() else {
                if connection.peerClosed, !connection.output.isEmpty || produced { connection.closeAfterFlush = true }
                break
            }
            produced = true
            connection.requestCount += 1
            switch event {
            case .failure(let error):
                enqueue(.page(error.status, Pages.error(status: error.status, reason: error.reason)), on: connection, request: nil)
            case .request(let head):
                switch responder.respond(to: head) {
                case .response(let response):
                    enqueue(response, on: connection, request: head)
                case .miss(let site, let path):
                    startMiss(on: connection, site: site, path: path, request: head)
                }
            }
        }
        if produced {
            connection.partialSince = connection.parser.hasPartialRequest ? now : nil
        }
        return produced
    }

    /// Queues a response (head, then body unless HEAD) and writes the access-log entry.
    func enqueue(_ response: Response, on connection: Connection, request: HTTPRequestHead?) {
        let keepAlive = (request?.keepAlive ?? false) && !stopping
        let dateLines = dateLines
        connection.output.appendBytes { response.appendHead(to: &$0, keepAlive: keepAlive, dateLines: dateLines) }
        let isHead = request?.method == "HEAD"
        var ok = true
        if !isHead {
            switch response.body {
            case .empty: break
            case .bytes(let bytes): connection.output.append(bytes)
            case .file(let file, let range): ok = connection.output.append(file: file, range: range)
            }
        }
        if !keepAlive || !ok { connection.closeAfterFlush = true }
        if let log = configuration.accessLog {
            log(AccessLogEntry(
                remoteAddress: connection.remoteAddress, clientSubject: connection.tls?.clientSubject, time: Date(),
                requestLine: request.map { AccessLogEntry.redacted($0.requestLine) } ?? "-",
                status: response.status, bytes: isHead ? 0 : response.bodyLength))
        }
    }

    /// Hands a miss to the ``MissHandler`` on a Task; the answer comes back through the mailbox.
    func startMiss(on connection: Connection, site: String, path: String, request: HTTPRequestHead) {
        guard let handler = configuration.missHandler else {
            enqueue(responder.notFound(RequestPath(segments: [], trailingSlash: true)), on: connection, request: request)
            return
        }
        connection.awaitingMiss = true
        let mailbox = self.mailbox
        let id = connection.id
        Task.detached {
            let result = await handler.handleMiss(site: site, path: path, request: request)
            mailbox.post(.missCompleted(connection: id, result: result, request: request, site: site, path: path))
        }
    }
}
