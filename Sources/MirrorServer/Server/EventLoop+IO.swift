import CMirrorShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Socket and TLS I/O of the loop: readiness handling, reads, writes, closing.
extension EventLoop {
    enum FlushResult { case drained, blocked, failed }

    func handle(_ connection: Connection, events: UInt32) {
        if events & CMirrorShims_EPOLLERR() != 0 {
            destroy(connection)
            return
        }
        if connection.lingerUntil != nil {
            discardLingering(connection)
            return
        }
        if let tls = connection.tls, !tls.handshakeComplete {
            switch tls.handshake() {
            case .done: connection.tlsHandshakeWantsWrite = false
            case .wantRead: connection.tlsHandshakeWantsWrite = false; updateInterest(connection); return
            case .wantWrite: connection.tlsHandshakeWantsWrite = true; updateInterest(connection); return
            case .closed: destroy(connection); return
            case .failed:
                // The alert (such as "certificate required") is already written; linger so the
                // client reads it instead of a reset.
                beginClose(connection)
                return
            }
        }
        if events & CMirrorShims_EPOLLHUP() != 0 && connection.output.isEmpty && !connection.awaitingMiss {
            // Both directions are gone: nothing can be delivered.
            _ = readAvailable(connection)
            if connections[connection.id] != nil { destroy(connection) }
            return
        }
        if !connection.readPaused || connection.tlsReadWantsWrite {
            guard readAvailable(connection) else { return }
        }
        service(connection)
    }

    /// Reads what the socket has into the parser. - Returns: false when the connection was destroyed.
    func readAvailable(_ connection: Connection) -> Bool {
        connection.tlsReadWantsWrite = false
        for _ in 0..<8 {
            var count = 0
            if let tls = connection.tls {
                switch tls.read(into: scratch) {
                case .done(let read): count = read
                case .wantRead: return true
                case .wantWrite: connection.tlsReadWantsWrite = true; return true
                case .closed: count = 0
                case .failed: destroy(connection); return false
                }
            } else {
                count = recv(connection.descriptor, scratch.baseAddress, scratch.count, 0)
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                    destroy(connection)
                    return false
                }
            }
            if count == 0 {
                connection.peerClosed = true
                return true
            }
            connection.parser.feed(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
            connection.lastActivity = now
            if connection.partialSince == nil, connection.parser.hasPartialRequest { connection.partialSince = now }
            if connection.tls == nil, count < scratch.count { return true }
            if connection.output.isBackpressured { return true }
        }
        return true
    }

    /// Writes queued output until done or the socket is full.
    func flush(_ connection: Connection) -> FlushResult {
        while true {
            switch connection.output.leading {
            case .none:
                return .drained
            case .file(let file, let range):
                if connection.tls != nil {
                    guard connection.output.materializeLeadingFile() else { return .failed }
                    continue
                }
                var position = off_t(range.lowerBound)
                let written = CMirrorShims_sendfile(connection.descriptor, file.descriptor, &position, Int(min(Int64(range.count), 1 << 20)))
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno == EAGAIN || errno == EWOULDBLOCK ? .blocked : .failed
                }
                guard written > 0 else { return .failed }  // the file shrank under us
                connection.output.consumeFile(Int64(written))
            case .bytes:
                if let tls = connection.tls {
                    let result = connection.output.withUnsentBytes { unsent in
                        tls.write(UnsafeRawBufferPointer(rebasing: unsent[..<min(unsent.count, 64 * 1024)]))
                    }
                    switch result {
                    case .done(let written): connection.output.consumeBytes(written)
                    case .wantWrite, .wantRead: return .blocked
                    case .closed, .failed: return .failed
                    }
                } else {
                    let written = connection.output.withUnsentBytes { unsent in
                        send(connection.descriptor, unsent.baseAddress, unsent.count, Int32(MSG_NOSIGNAL))
                    }
                    if written < 0 {
                        if errno == EINTR { continue }
                        return errno == EAGAIN || errno == EWOULDBLOCK ? .blocked : .failed
                    }
                    connection.output.consumeBytes(written)
                }
            }
            connection.lastWriteProgress = now
            connection.lastActivity = now
        }
    }

    /// Processes requests and writes until blocked or out of work, then sets timers and interest.
    func service(_ connection: Connection) {
        for _ in 0..<32 {
            let produced = processRequests(connection)
            switch flush(connection) {
            case .failed: destroy(connection); return
            case .blocked: updateInterest(connection); return
            case .drained: break
            }
            if connection.closeAfterFlush {
                beginClose(connection)
                return
            }
            if connection.peerClosed, !connection.awaitingMiss, !produced {
                destroy(connection)
                return
            }
            if !produced { break }
        }
        updateInterest(connection)
    }

    func updateInterest(_ connection: Connection) {
        var events: UInt32 = 0
        if connection.lingerUntil != nil {
            events = CMirrorShims_EPOLLIN()
        } else if let tls = connection.tls, !tls.handshakeComplete {
            events = connection.tlsHandshakeWantsWrite ? CMirrorShims_EPOLLOUT() : CMirrorShims_EPOLLIN()
        } else {
            if !connection.readPaused { events |= CMirrorShims_EPOLLIN() }
            if !connection.output.isEmpty || connection.tlsReadWantsWrite { events |= CMirrorShims_EPOLLOUT() }
        }
        modify(connection, events: events)
    }

    /// After the last response: shut the write side and read until EOF (at most 2 s), so that
    /// unread request bytes do not turn the close into a reset that destroys the response.
    func beginClose(_ connection: Connection) {
        connection.tls?.shutdown()
        _ = shutdown(connection.descriptor, Int32(SHUT_WR))
        if connection.peerClosed || stopping {
            destroy(connection)
            return
        }
        connection.lingerUntil = now &+ 2_000_000_000
        updateInterest(connection)
    }

    func discardLingering(_ connection: Connection) {
        while true {
            let count = recv(connection.descriptor, scratch.baseAddress, scratch.count, 0)
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            connection.lingerDiscarded += max(count, 0)
            if count <= 0 || connection.lingerDiscarded > 1 << 20 {
                destroy(connection)
                return
            }
        }
    }

    func destroy(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        var event = epoll_event()
        _ = CMirrorShims_epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, connection.descriptor, &event)
        connection.tls = nil
        _ = close(connection.descriptor)
    }
}
