import CCurl
import CMirrorShims
import Foundation
import MirrorCore
import MirrorTLS

/// A libcurl multi handle driven by one dedicated thread.
///
/// Callers on any thread (or task) submit transfers with ``submit(_:)``; the engine thread adds
/// them to the multi handle, runs `curl_multi_perform`/`curl_multi_poll`, and resumes each
/// caller's continuation when its transfer ends. Nothing here blocks the Swift cooperative pool.
///
/// One engine serves one ``TLSProfile``: its connections, TLS sessions (share handle) and DNS
/// cache are never used for another identity or trust policy, because libcurl cannot see what
/// the profile installs in its SSL_CTX callback and would otherwise reuse an authenticated
/// connection for a request that should not have one.
final class CurlMultiEngine: @unchecked Sendable {
    struct Limits: Sendable {
        var maxConnectionsPerHost: Int = 8
        var maxTotalConnections: Int = 32
        var httpVersion: HTTPVersionPreference = .automatic
    }

    /// Connections to a host on a near link under ``HTTPVersionPreference/automatic``, each
    /// carrying one HTTP/1.1 transfer at a time (the window's other transfers wait in libcurl
    /// for one of them). In an unchanged refresh of 4,695 URLs on loopback, 8 such connections
    /// took 0.46 s, 16 took 0.53 s, and HTTP/2 with the window's 16 streams 0.66 s (CPU 526
    /// against 685 ms): curl 7.88's and nginx's work per HTTP/2 request outweighs what
    /// multiplexing saves when a transfer takes a millisecond.
    static let nearConnections = 8

    let profile: TLSProfile?
    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer?
    private let lock = NSLock()
    private let exited = DispatchSemaphore(value: 0)
    // Guarded by `lock`:
    private var pending: [CurlTransfer] = []
    private var cancellations: Set<UInt64> = []
    private var stopping = false
    private var started = false
    /// A wakeup was sent that the engine thread has not answered yet (by taking `pending`):
    /// further submissions need none. One wakeup per request cost a system call each.
    private var wakeupPending = false
    /// The multi and share handles were freed (see `releaseHandles()`).
    private var released = false
    /// Polls that waited their whole timeout while transfers were in flight (see
    /// ``stalledPolls``). Guarded by `lock`.
    private var stalledPollCount = 0
    /// The window's limit as last published by the engine thread (``transferWindow``).
    /// Guarded by `lock`.
    private var publishedWindow = Int.max
    /// The transfers the client expects (``expectTransfers(_:)``). Guarded by `lock`.
    private var announcedTransfers = 0
    /// Easy handles of finished transfers, reset for the next ones (``takeHandle(_:)``). Making
    /// and freeing a handle per request (its state, buffers and default options) was a tenth
    /// of the engine thread's time in an unchanged refresh, most of it in malloc. Reset handles
    /// keep their receive buffer and stay attached to this engine's share handle, so only this
    /// engine uses them. Guarded by `lock`.
    private var idleHandles: [UnsafeMutableRawPointer] = []
    /// The most idle handles kept: a crawl's transfers in flight rarely exceed this, and each
    /// idle handle holds about 25 KB.
    static let maxIdleHandles = 64
    // Engine thread only:
    private var active: [UInt64: CurlTransfer] = [:]
    /// How many transfers may be on the multi handle at once (``TransferWindow``).
    private var window = TransferWindow()
    private let httpVersion: HTTPVersionPreference
    /// Submitted transfers beyond the window, in order; those before `waitingHead` have left.
    private var waiting: [CurlTransfer] = []
    private var waitingHead = 0
    private var connectionPolicy: HostConnectionPolicy
    /// The value of `CURLMOPT_MAX_HOST_CONNECTIONS` on the multi handle.
    private var hostConnectionLimit: Int
    /// Transfers added whose request has not left yet: they wait for a connection (or for
    /// theirs to be set up).
    private var unsent: [CurlTransfer] = []
    /// Requests in flight per connection (by local port), for the HTTP/2 stream-limit check.
    private var streamsByConnection: [Int32: Int] = [:]
    /// Consecutive rounds in which requests waited while every allowed connection was full.
    private var saturatedRounds = 0
    /// The policy learnt a lower stream limit: the waiting transfers must try again.
    private var retryWaiting = false
    /// When the header deadlines were last checked (monotonic nanoseconds).
    private var lastDeadlineSweep: UInt64 = 0

    /// How many times the engine waited a whole poll timeout (one second) while transfers were
    /// in flight. Against a server that answers at once this stays 0; a count there means
    /// libcurl held received data where polling the sockets could not see it.
    var stalledPolls: Int {
        lock.lock()
        defer { lock.unlock() }
        return stalledPollCount
    }

    /// How many transfers the engine keeps in flight now (``TransferWindow/limit``); `Int.max`
    /// until a transfer has ended. Callers that start transfers (the crawl's workers) hold no
    /// more than this in the engine's queue, so that a transfer that could not leave yet costs
    /// no task, handle or buffer.
    var transferWindow: Int {
        lock.lock()
        defer { lock.unlock() }
        return publishedWindow
    }

    /// Notes that the engine's client expects `count` transfers in all (``NearLinkSwitch``).
    func expectTransfers(_ count: Int) {
        lock.lock()
        announcedTransfers = max(announcedTransfers, count)
        lock.unlock()
    }

    /// How many reset easy handles wait for a transfer (``idleHandles``).
    var idleHandleCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return idleHandles.count
    }

    init(profile: TLSProfile?, limits: Limits) throws(HTTPError) {
        if let reason = CurlGlobal.unavailableReason { throw .curl(url: "", code: -1, message: reason) }
        guard let multi = CMirrorShims_curl_multi_init() else {
            throw .curl(url: "", code: -1, message: "curl_multi_init failed")
        }
        self.multi = multi
        self.profile = profile
        httpVersion = limits.httpVersion
        connectionPolicy = HostConnectionPolicy(configured: limits.maxConnectionsPerHost)
        hostConnectionLimit = connectionPolicy.configured
        _ = CMirrorShims_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = CMirrorShims_curl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, HostConnectionPolicy.streamsPerConnection)
        _ = CMirrorShims_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, hostConnectionLimit)
        _ = CMirrorShims_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.maxTotalConnections)
        _ = CMirrorShims_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, limits.maxTotalConnections)
        // TLS sessions and DNS answers are shared between this engine's handles only. The
        // engine thread is the only user, so the share needs no lock callbacks.
        share = CMirrorShims_curl_share_init()
        if let share {
            _ = CMirrorShims_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
            _ = CMirrorShims_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        }
    }

    deinit {
        releaseHandles()
    }

    /// Frees the multi and share handles once: the engine thread as it stops, or `shutdown()`
    /// (and `deinit`) for an engine that never started one. Closing the pooled connections
    /// frees their OpenSSL state, which must not happen while the process runs its exit
    /// handlers: `shutdown()` returns only once it is done.
    private func releaseHandles() {
        lock.lock()
        let release = !released
        released = true
        lock.unlock()
        guard release else { return }
        lock.lock()
        let handles = idleHandles
        idleHandles.removeAll()
        lock.unlock()
        // Before the share handle they are attached to.
        for handle in handles { CMirrorShims_curl_easy_cleanup(handle) }
        CMirrorShims_curl_multi_cleanup(multi)
        if let share { CMirrorShims_curl_share_cleanup(share) }
    }

    /// An easy handle for a new transfer: an idle one of this engine (reset, see
    /// ``idleHandles``), or a new one.
    /// - Throws: ``HTTPError/curl(url:code:message:)`` when libcurl cannot make one.
    /// - Returns: the handle, and whether it is new (see ``CurlTransfer/init(id:handle:request:host:port:profile:proxy:capture:continuation:)``).
    func takeHandle(_ url: String) throws(HTTPError) -> (easy: UnsafeMutableRawPointer, isNew: Bool) {
        lock.lock()
        let reused = released ? nil : idleHandles.popLast()
        lock.unlock()
        if let reused { return (reused, false) }
        guard let easy = CMirrorShims_curl_easy_init() else { throw .curl(url: url, code: -1, message: "curl_easy_init failed") }
        return (easy, true)
    }

    /// Takes a finished transfer's easy handle back (it has left the multi handle), resets it
    /// and keeps it for ``takeHandle(_:)``. Engine thread only: the reset handle still refers
    /// to the share handle, which only this thread may touch.
    private func recycle(_ transfer: CurlTransfer) {
        guard let easy = transfer.releaseHandle() else { return }
        CMirrorShims_curl_easy_reset(easy)
        lock.lock()
        if !released, idleHandles.count < Self.maxIdleHandles {
            idleHandles.append(easy)
            lock.unlock()
        } else {
            lock.unlock()
            CMirrorShims_curl_easy_cleanup(easy)
        }
    }

    /// Queues a transfer; the engine thread picks it up at once.
    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        if stopping {
            // The handle may be a reset one attached to the share handle: it goes back to the
            // idle handles, which `releaseHandles()` frees after the engine thread has stopped.
            if !released, let easy = transfer.releaseHandle() { idleHandles.append(easy) }
            lock.unlock()
            transfer.continuation.resume(returning: .failure(.cancelled(url: transfer.request.url)))
            return
        }
        pending.append(transfer)
        let mustStart = !started
        started = true
        // Still under the lock: shutdown() cannot free the multi handle in between.
        if mustStart { startThread() }
        wakeUpLocked()
        lock.unlock()
    }

    /// Asks the engine to abandon a transfer; its caller gets ``HTTPError/cancelled(url:)``.
    func cancel(_ id: UInt64) {
        lock.lock()
        if stopping {
            lock.unlock()
            return  // shutdown fails every transfer as cancelled anyway
        }
        cancellations.insert(id)
        wakeUpLocked()
        lock.unlock()
    }

    /// Asks the engine to stop and returns at once: its thread fails every queued and running
    /// transfer as cancelled, closes the connections and frees the handles, then exits
    /// (``shutdown()`` waits for that). A client whose run fetches nothing more starts it
    /// here, so that closing the connections overlaps what the run still does (issue #27).
    func beginShutdown() {
        lock.lock()
        stopping = true
        // Under the lock and only before the thread marks the handles released: it frees the
        // multi handle only after that, so the wakeup never reaches a freed one.
        if started, !released { wakeUpLocked() }
        lock.unlock()
    }

    /// Fails every queued and running transfer as cancelled, stops the thread and waits for
    /// it; the handles are freed when this returns. Calling it again returns at once.
    func shutdown() {
        beginShutdown()
        // `started` no longer changes: a stopping engine starts no thread.
        lock.lock()
        let wasStarted = started
        lock.unlock()
        if wasStarted {
            exited.wait()
            exited.signal()  // for the next caller
        }
        releaseHandles()
    }

    /// Interrupts the engine's `curl_multi_poll`, unless a wakeup is on its way already. Called
    /// with `lock` held.
    private func wakeUpLocked() {
        guard !wakeupPending else { return }
        wakeupPending = true
        CMirrorShims_curl_multi_wakeup(multi)
    }

    /// The longest wait for socket activity or a wakeup; libcurl shortens it to its own timers.
    static let pollTimeoutMilliseconds: Int32 = 1000

    /// The engine thread's stack.
    static let threadStackSize = 1 << 20

    /// Runs the engine on the thread parked for the first engine (``EngineThreadReserve``), or
    /// on a new one.
    private func startThread() {
        let body: @Sendable () -> Void = { [self] in
            // Named from inside: on Linux a new thread inherits its creator's name.
            _ = CMirrorShims_set_thread_name("mm-curl")
            self.run()
        }
        if EngineThreadReserve.shared.take(body) { return }
        let thread = Thread(block: body)
        thread.stackSize = Self.threadStackSize
        thread.start()
    }

    /// A transfer left the multi handle: its request no longer occupies a stream.
    private func retire(_ transfer: CurlTransfer) {
        transfer.isRetired = true
        let port = transfer.countedPort
        guard port != 0, let count = streamsByConnection[port] else { return }
        streamsByConnection[port] = count > 1 ? count - 1 : nil
        transfer.countedPort = 0
    }

    /// Counts the requests that left since the last round under their connections, and checks
    /// whether the server allows fewer streams per connection than the policy assumes
    /// (``HostConnectionPolicy/saturatedConnectionStreams(waiting:streamsByConnection:limit:)``,
    /// two rounds in a row).
    private func accountSentRequests() {
        guard !unsent.isEmpty else {
            saturatedRounds = 0
            return
        }
        unsent.removeAll { transfer in
            if transfer.isRetired { return true }
            let port = transfer.connectionPort
            guard port != 0 else { return false }
            streamsByConnection[port, default: 0] += 1
            transfer.countedPort = port
            return true
        }
        guard connectionPolicy.adaptsToStreams, hostConnectionLimit < connectionPolicy.configured,
              let streams = HostConnectionPolicy.saturatedConnectionStreams(
                  waiting: unsent.count, streamsByConnection: Array(streamsByConnection.values), limit: hostConnectionLimit)
        else {
            saturatedRounds = 0
            return
        }
        saturatedRounds += 1
        if saturatedRounds >= 2 {
            connectionPolicy.observeServerStreamLimit(streams)
            saturatedRounds = 0
            retryWaiting = true
        }
    }

    /// Takes the transfers whose requests wait for a connection off the multi handle and adds
    /// them again, so that they see the raised connection limit. libcurl 7.88 keeps a transfer
    /// that found no connection in a pending list and lets one of them try again per finished
    /// transfer, which then takes the stream that transfer freed: no new connection would open.
    /// They hold no connection (every allowed one was open and full, see
    /// ``HostConnectionPolicy/saturatedConnectionStreams(waiting:streamsByConnection:limit:)``).
    private func addWaitingAgain() {
        for transfer in unsent where !transfer.isRetired && transfer.connectionPort == 0 {
            CMirrorShims_curl_multi_remove_handle(multi, transfer.easy)
            let code = CMirrorShims_curl_multi_add_handle(multi, transfer.easy)
            guard code != CURLM_OK else { continue }
            active.removeValue(forKey: transfer.id)
            retire(transfer)
            recycle(transfer)
            transfer.continuation.resume(returning: .failure(.curl(
                url: transfer.request.url, code: Int32(code.rawValue), message: String(cString: CMirrorShims_curl_multi_strerror(code)))))
        }
    }

    /// Whether new transfers ask for HTTP/1.1, on at most ``nearConnections`` connections to a
    /// host (``HTTPVersionPreference/automatic`` on a near link, once the run is large enough).
    private var nearLink = NearLinkSwitch()

    /// Adds waiting transfers to the multi handle, oldest first, while the window has room.
    private func admitWaiting() {
        // The announced count is read only once the link shows it is near: a far link never
        // moves, and its engine takes no lock here.
        if httpVersion == .automatic, !nearLink.isOn, window.isNear {
            lock.lock()
            let announced = announcedTransfers
            lock.unlock()
            nearLink.expect(announced)
            nearLink.update(isNear: true)
        }
        let http1 = nearLink.isOn || httpVersion == .http1
        while waitingHead < waiting.count, active.count < window.limit {
            let transfer = waiting[waitingHead]
            waitingHead += 1
            do throws(HTTPError) {
                try transfer.configure(share: share, http1: http1)
                let code = CMirrorShims_curl_multi_add_handle(multi, transfer.easy)
                guard code == CURLM_OK else {
                    throw .curl(url: transfer.request.url, code: Int32(code.rawValue),
                                message: String(cString: CMirrorShims_curl_multi_strerror(code)))
                }
                active[transfer.id] = transfer
                unsent.append(transfer)
            } catch {
                recycle(transfer)
                transfer.continuation.resume(returning: .failure(error))
            }
        }
        // The array is compacted once the transfers that left outnumber those still waiting.
        if waitingHead > 0, waitingHead >= waiting.count - waitingHead {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    /// Fails the transfers whose response headers are overdue (``HTTPRequest/Timeouts/headers``),
    /// checked at most twice a second. libcurl has no such deadline: a server that sends one
    /// header line every few seconds keeps its idle timer from ever firing.
    /// - Returns: how many were failed.
    private func failOverdueHeaders() -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- lastDeadlineSweep >= 500_000_000 else { return 0 }
        lastDeadlineSweep = now
        var failed = 0
        for (id, transfer) in active where transfer.headersOverdue(at: now) {
            active.removeValue(forKey: id)
            CMirrorShims_curl_multi_remove_handle(multi, transfer.easy)
            retire(transfer)
            let seconds = NumberText.fixed(transfer.request.timeouts.headers, fractionDigits: 0)
            recycle(transfer)
            transfer.continuation.resume(returning: .failure(.timeout(
                url: transfer.request.url, message: "the response headers were not complete within \(seconds) s of the request")))
            failed += 1
        }
        return failed
    }

    private func run() {
        while true {
            lock.lock()
            let incoming = pending
            pending.removeAll()
            let cancelled = cancellations
            cancellations.removeAll()
            let stop = stopping
            // Whatever is queued from now on needs a new wakeup: this round has taken the rest.
            wakeupPending = false
            lock.unlock()

            waiting += incoming
            for id in cancelled {
                if let transfer = active.removeValue(forKey: id) {
                    CMirrorShims_curl_multi_remove_handle(multi, transfer.easy)
                    retire(transfer)
                    recycle(transfer)
                    transfer.continuation.resume(returning: .failure(.cancelled(url: transfer.request.url)))
                } else if let index = waiting[waitingHead...].firstIndex(where: { $0.id == id }) {
                    let transfer = waiting.remove(at: index)
                    recycle(transfer)
                    transfer.continuation.resume(returning: .failure(.cancelled(url: transfer.request.url)))
                }
            }
            if stop {
                for (_, transfer) in active {
                    CMirrorShims_curl_multi_remove_handle(multi, transfer.easy)
                    recycle(transfer)
                    transfer.continuation.resume(returning: .failure(.cancelled(url: transfer.request.url)))
                }
                for transfer in waiting[waitingHead...] {
                    recycle(transfer)
                    transfer.continuation.resume(returning: .failure(.cancelled(url: transfer.request.url)))
                }
                active.removeAll()
                unsent.removeAll()
                waiting.removeAll()
                waitingHead = 0
                // Here, not on the thread that waits in shutdown(): closing the connections
                // (TLS close_notify, HTTP/2 GOAWAY) and freeing the handles took 0.3-0.7 ms.
                releaseHandles()
                exited.signal()
                return
            }
            admitWaiting()

            // Before libcurl places the new transfers on connections.
            var limit = connectionPolicy.limit(activeTransfers: active.count)
            if nearLink.isOn { limit = min(limit, Self.nearConnections) }
            if limit != hostConnectionLimit {
                hostConnectionLimit = limit
                _ = CMirrorShims_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limit)
            }
            if retryWaiting {
                retryWaiting = false
                addWaitingAgain()
            }
            var running: Int32 = 0
            _ = CMirrorShims_curl_multi_perform(multi, &running)
            var left: Int32 = 0
            var completed = 0
            while let message = CMirrorShims_curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = CMirrorShims_curl_msg_result(message)
                var raw: UnsafeMutableRawPointer?
                _ = CMirrorShims_curl_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &raw)
                CMirrorShims_curl_multi_remove_handle(multi, easy)
                guard let raw else { continue }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(raw).takeUnretainedValue()
                retire(transfer)
                if transfer.mayResend(after: code) {
                    // Unanswered: sent again, as a new request (see ``CurlTransfer/mayResend(after:)``).
                    transfer.prepareResend()
                    if CMirrorShims_curl_multi_add_handle(multi, easy) == CURLM_OK {
                        transfer.isRetired = false
                        unsent.append(transfer)
                        completed += 1
                        continue
                    }
                }
                active.removeValue(forKey: transfer.id)
                let now = DispatchTime.now().uptimeNanoseconds
                let before = window.limit
                window.completed(at: now, duration: transfer.duration(at: now), waiting: waitingHead < waiting.count)
                nearLink.transferFinished()
                if window.limit != before {
                    lock.lock()
                    publishedWindow = window.limit
                    lock.unlock()
                }
                var version = 0
                _ = CMirrorShims_curl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
                connectionPolicy.observe(httpVersion: version)
                let result = transfer.finish(code: code)
                // Before the caller resumes: its next request finds the handle idle.
                recycle(transfer)
                transfer.continuation.resume(returning: result)
                completed += 1
            }
            accountSentRequests()
            completed += failOverdueHeaders()
            // After completions, go round again at once: with HTTP/2, other streams' frames may
            // already sit in libcurl's buffers, where polling the socket would not see them.
            var ready: Int32 = 0
            let timeout: Int32 = completed > 0 || !incoming.isEmpty ? 0 : Self.pollTimeoutMilliseconds
            let pollStart = timeout > 0 && !active.isEmpty ? DispatchTime.now().uptimeNanoseconds : nil
            _ = CMirrorShims_curl_multi_poll(multi, nil, 0, timeout, &ready)
            if let pollStart, ready == 0,
               DispatchTime.now().uptimeNanoseconds - pollStart >= UInt64(timeout) * 1_000_000 {
                lock.lock()
                stalledPollCount += 1
                lock.unlock()
            }
        }
    }
}
