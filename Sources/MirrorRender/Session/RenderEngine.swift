import CMirrorShims
import Foundation
import MirrorCore
#if canImport(Glibc)
import Glibc
#endif

/// The thin I/O shell around one ``BrowserMachine``: a thread of its own that polls the
/// browser's pipe and a wake-up pipe, feeds the machine what arrives (messages, submissions,
/// the handler's answers, the clock) and carries out its actions. Writes to the browser are
/// non-blocking and buffered, so a browser that is slow to read never stalls the reading of
/// its messages. Nothing here runs on Swift's cooperative pool except the handlers' answers,
/// which are `async` and come back through the mailbox.
final class RenderEngine: @unchecked Sendable {
    private let launch: BrowserLaunch
    private let logger: Logger

    // Shared with other threads, under `lock`.
    private let lock = NSLock()
    private var inbox: [BrowserMachine.Input] = []
    private var jobs: [Int: Job] = [:]
    private var nextJob = 1
    private var readiness: Result<Void, RenderError>?
    private var readyWaiters: [CheckedContinuation<Result<Void, RenderError>, Never>] = []
    private var stopping = false
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)

    // The loop thread's own.
    private var machine: BrowserMachine
    private var process: BrowserProcess?
    private var framer = DevToolsFramer()
    private var output: [UInt8] = []
    /// Bytes of `output` already written (compacted when the buffer empties or grows).
    private var outputOffset = 0
    private var lastExitCheck: Double = 0
    /// How many browsers were started (the first, and restarts after crashes).
    private(set) var starts = 0

    private struct Job {
        let handler: any RenderRequestHandler
        let continuation: CheckedContinuation<Result<RenderedPage, PageRenderFailure>, Never>
    }

    init(launch: BrowserLaunch, configuration: BrowserMachine.Configuration, logger: Logger) {
        self.launch = launch
        self.logger = logger
        machine = BrowserMachine(configuration: configuration)
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the loop thread and the browser; returns once the browser has a tab ready, or
    /// with the reason it cannot start.
    func start() async -> Result<Void, RenderError> {
        // A write to the pipe of a browser that just died must fail with EPIPE, not kill us.
        signal(SIGPIPE, SIG_IGN)
        let thread = Thread { [self] in
            _ = CMirrorShims_set_thread_name("mtls-mirror.render")
            run()
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        return await withCheckedContinuation { continuation in
            lock.lock()
            if let readiness {
                lock.unlock()
                continuation.resume(returning: readiness)
                return
            }
            readyWaiters.append(continuation)
            lock.unlock()
        }
    }

    /// Renders `url`, asking `handler` for every request the page makes.
    func render(_ url: String, handler: any RenderRequestHandler) async -> Result<RenderedPage, PageRenderFailure> {
        await withCheckedContinuation { continuation in
            lock.lock()
            if stopping {
                lock.unlock()
                continuation.resume(returning: .failure(.browserUnavailable(.stopped)))
                return
            }
            let id = nextJob
            nextJob += 1
            jobs[id] = Job(handler: handler, continuation: continuation)
            inbox.append(.submit(job: id, url: url))
            lock.unlock()
            wake()
        }
    }

    /// Stops the browser (every page still waiting fails) and the loop thread, and waits.
    func stop() {
        lock.lock()
        let already = stopping
        stopping = true
        inbox.append(.shutdown)
        lock.unlock()
        wake()
        if !already { finished.wait() }
    }

    private func post(_ input: BrowserMachine.Input) {
        lock.lock()
        inbox.append(input)
        lock.unlock()
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    // MARK: The loop

    private func run() {
        startBrowser()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let now = Self.monotonic()
            var timeout: Int32 = 1000
            if let deadline = machine.nextDeadline {
                timeout = Int32(max(0, min(1000, ((deadline - now) * 1000).rounded(.up))))
            }
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if let process {
                descriptors.append(pollfd(fd: process.messageDescriptor, events: Int16(POLLIN), revents: 0))
                if outputOffset < output.count { descriptors.append(pollfd(fd: process.commandDescriptor, events: Int16(POLLOUT), revents: 0)) }
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            // The mailbox.
            var drain = [UInt8](repeating: 0, count: 256)
            while read(wakeRead, &drain, drain.count) > 0 {}
            lock.lock()
            let inputs = inbox
            inbox = []
            lock.unlock()
            var shutdown = false
            for input in inputs {
                if case .shutdown = input { shutdown = true }
                feed(input)
            }
            if shutdown { break }
            // The browser's messages.
            if let process, descriptors.count > 1, descriptors[1].revents != 0 {
                readMessages(from: process, into: &chunk)
            }
            flush()
            feed(.tick)
            // A browser that died without closing its pipe (a child holding it open).
            let later = Self.monotonic()
            if let process, later - lastExitCheck > 0.5 {
                lastExitCheck = later
                if let status = process.exitStatus() { lost("the browser \(status)") }
            }
        }
        process?.stop()
        process = nil
    }

    private func readMessages(from process: BrowserProcess, into chunk: inout [UInt8]) {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(process.messageDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                for framed in framer.feed(chunk.prefix(count)) {
                    switch framed {
                    case .message(let bytes):
                        if let message = try? DevToolsMessage.decode(bytes) { feed(.message(message)) }
                        if self.process == nil { return }  // restarted while handling
                    case .oversized(let bytes):
                        lost("the browser sent a message of more than \(bytes) bytes")
                        return
                    }
                }
                if count < chunk.count { return }
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            let status = process.exitStatus() ?? "closed its DevTools pipe"
            lost("the browser \(status)" + Self.detail(process))
            return
        }
    }

    private static func detail(_ process: BrowserProcess) -> String {
        let tail = process.profile.standardErrorTail()
        return tail.isEmpty ? "" : " (\(tail))"
    }

    private func lost(_ reason: String) {
        logger.debug("render: \(reason)")
        feed(.browserLost(reason: reason))
    }

    private func feed(_ input: BrowserMachine.Input) {
        let actions = machine.handle(input, now: Self.monotonic())
        for action in actions { perform(action) }
    }

    private func perform(_ action: BrowserMachine.Action) {
        switch action {
        case .write(let bytes):
            output.append(contentsOf: bytes)
            if output.count >= 64 * 1024 { flush() }
        case .ask(let job, let token, let request):
            lock.lock()
            let handler = jobs[job]?.handler
            lock.unlock()
            guard let handler else {
                post(.answer(token: token, .fail(.aborted)))
                return
            }
            Task { [self] in
                let answer = await handler.answer(request)
                post(.answer(token: token, answer))
            }
        case .finish(let job, let result):
            lock.lock()
            let entry = jobs.removeValue(forKey: job)
            lock.unlock()
            entry?.continuation.resume(returning: result)
        case .ready:
            settle(.success(()))
        case .restartBrowser:
            process?.stop()
            process = nil
            logger.debug("render: starting the browser again")
            startBrowser()
        case .unavailable(let error):
            process?.stop()
            process = nil
            settle(.failure(error))
        }
    }

    private func settle(_ result: Result<Void, RenderError>) {
        lock.lock()
        if readiness == nil { readiness = result }
        let waiters = readyWaiters
        readyWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume(returning: result) }
    }

    private func startBrowser() {
        framer = DevToolsFramer()
        output = []
        outputOffset = 0
        starts += 1
        do {
            process = try BrowserProcess.spawn(launch)
            feed(.browserStarted)
        } catch {
            feed(.startFailed(error))
        }
    }

    /// Writes as much of the buffered output as the pipe takes now.
    private func flush() {
        guard let process, outputOffset < output.count else { return }
        while outputOffset < output.count {
            let count = output.withUnsafeBytes { buffer in
                write(process.commandDescriptor, buffer.baseAddress! + outputOffset, buffer.count - outputOffset)
            }
            if count > 0 { outputOffset += count; continue }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            lost("the browser's DevTools pipe broke")
            return
        }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 4 << 20)
            outputOffset = 0
        } else if outputOffset > 1 << 20, outputOffset * 2 > output.count {
            output.removeFirst(outputOffset)
            outputOffset = 0
        }
    }

    /// Seconds on the monotonic clock.
    static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
