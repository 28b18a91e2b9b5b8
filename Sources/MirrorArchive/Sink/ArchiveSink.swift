import CMirrorShims
import Foundation
import MirrorCore
import MirrorHTTP
#if canImport(Glibc)
import Glibc
#endif

/// Where a run's exchanges become WARC records: the ``ExchangeRecorder`` that any producer of
/// fetches hands its captures to (the crawl, and a browser whose requests the engine answers).
///
/// ```swift
/// let sink = try ArchiveSink.open(ArchiveSink.Configuration(site: "intranet", folder: "output/intranet/archive", info: info))
/// var request = HTTPRequest(url: url)
/// request.capture = sink.captureOptions      // every exchange of this request is recorded
/// …
/// let summary = try await sink.finish()      // closes the file, writes its index and the history
/// ```
///
/// Records are written on a thread of the sink's own, in the order captures arrive, so that
/// compressing them never holds a cooperative thread; ``record(_:)`` waits only when more than
/// ``Configuration/queueBudget`` bytes of payload are queued. Opening the sink finishes files a
/// killed run left open (``WARCFileRecovery``) and empties the spool folder; call it while
/// holding the site's lock. A write failure (a full disk) stops the archive, not the crawl:
/// later captures are dropped and ``finish()`` throws the first failure.
public final class ArchiveSink: ExchangeRecorder, @unchecked Sendable {
    /// Where and how to write.
    public struct Configuration: Sendable {
        /// The site's name: the start of each file name.
        public var site: String
        /// The archive folder (`output/SITE/archive`), created 0700.
        public var folder: String
        /// A file is closed and the next begun once it holds this many bytes.
        public var maxFileSize: Int64
        /// Header names whose values are replaced in records (case-insensitive).
        public var redactedHeaders: Set<String>
        /// The `warcinfo` block of each file: the tool, its version, and the run's options
        /// without secrets.
        public var info: WARCFields
        /// Payload bytes held in memory for the writer before ``record(_:)`` waits.
        public var queueBudget: Int

        public init(site: String, folder: String, maxFileSize: Int64 = 1 << 30,
                    redactedHeaders: Set<String> = WARCRecordBuilder.defaultRedactedHeaders, info: WARCFields,
                    queueBudget: Int = 32 << 20) {
            self.site = site
            self.folder = folder
            self.maxFileSize = maxFileSize
            self.redactedHeaders = redactedHeaders
            self.info = info
            self.queueBudget = queueBudget
        }
    }

    /// What a finished run wrote.
    public struct Summary: Sendable, Equatable {
        /// The WARC files closed by this run, in order.
        public var files: [String]
        /// Exchanges recorded, and how many of them as revisits.
        public var exchanges: Int
        public var revisits: Int
        /// Bytes written to WARC files.
        public var bytes: Int64
        /// Files a killed run had left open, finished when the sink opened.
        public var recovered: [String]
        /// CPU time the writer thread used (building, compressing and writing records).
        public var writerCPUSeconds: Double
    }

    public let configuration: Configuration
    /// Where the WARC files are.
    public var warcFolder: String { configuration.folder }
    /// Where their indexes are.
    public var indexFolder: String { configuration.folder + "/" + Self.indexFolderName }

    public static let indexFolderName = "indexes"
    /// The writer thread's nice value (see ``open(_:)``).
    static let writerNice: Int32 = 10
    static let spoolFolderName = ".spool"

    private let history: CaptureHistory
    private let spool: CaptureSpool
    private let recovered: [String]
    private let lock = NSCondition()
    // Guarded by `lock`:
    private var queue: [HTTPCapture] = []
    private var queuedBytes = 0
    private var closing = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var failure: ArchiveError?
    /// Set by the writer thread, as its last act: the writer's files, counts and CPU time no
    /// longer change.
    private var done = false
    private var writerCPUSeconds = 0.0
    // Writer thread only (read by ``finish()`` under `lock` once `done` is set):
    private let writer: WARCArchiveWriter
    private var latest = [String: CaptureReference]()

    private init(configuration: Configuration, history: CaptureHistory, recovered: [String], writer: WARCArchiveWriter) {
        self.configuration = configuration
        self.history = history
        self.recovered = recovered
        self.writer = writer
        spool = CaptureSpool(folder: configuration.folder + "/" + Self.spoolFolderName)
    }

    /// Opens a site's archive: creates its folders (0700), finishes files a killed run left open,
    /// empties the spool folder, loads the capture history, and starts the writer thread.
    /// - Throws: ``ArchiveError`` when the folders cannot be made or a file cannot be recovered.
    public static func open(_ configuration: Configuration) throws(ArchiveError) -> ArchiveSink {
        let folder = configuration.folder
        let indexes = folder + "/" + indexFolderName
        let spoolFolder = folder + "/" + spoolFolderName
        for path in [folder, indexes, spoolFolder] { try PrivateFile.makeFolder(path) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: spoolFolder)) ?? [] {
            unlink(spoolFolder + "/" + name)
        }
        let recovered = try WARCFileRecovery.recover(folder: folder, indexFolder: indexes).filter { $0.records > 0 }.map(\.name)
        let writer = try WARCArchiveWriter(configuration: .init(
            folder: folder, indexFolder: indexes, prefix: configuration.site, maxFileSize: configuration.maxFileSize,
            info: configuration.info, redactedHeaders: Set(configuration.redactedHeaders.map { $0.lowercased() })))
        let sink = ArchiveSink(configuration: configuration, history: CaptureHistory.load(folder: folder), recovered: recovered,
                               writer: writer)
        let thread = Thread { [sink] in
            _ = CMirrorShims_set_thread_name("mm-archive")
            #if os(Linux)
            // Below the crawl it records (nice 10, this thread only): it writes with the cycles the
            // crawl leaves, and catches up at full speed once the crawl ends.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(CMirrorShims_gettid()), ArchiveSink.writerNice)
            #endif
            sink.run()
        }
        thread.stackSize = 1 << 20
        thread.start()
        return sink
    }

    /// The options a request needs so that its exchanges come here.
    public var captureOptions: CaptureOptions {
        CaptureOptions(recorder: self, spool: spool)
    }

    /// Whether an earlier run captured `url` in full (a revisit can then refer to it).
    public func hasCapture(of url: String) -> Bool {
        history[url] != nil
    }

    /// Queues a capture for the writer; waits while the queue holds more than the budget.
    public func record(_ capture: HTTPCapture) async {
        let size: Int
        if case .memory(let bytes) = capture.payload { size = bytes.count } else { size = 0 }
        while !enqueue(capture, size: size) {
            await withCheckedContinuation { park($0, size: size) }
        }
    }

    /// Queues the capture (or drops it once the sink is closing or failed); false when the queue
    /// is full.
    private func enqueue(_ capture: HTTPCapture, size: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if closing || failure != nil {
            capture.payload.discardSpoolFile()
            return true
        }
        guard queuedBytes == 0 || queuedBytes + size <= configuration.queueBudget else { return false }
        queue.append(capture)
        queuedBytes += size
        lock.signal()
        return true
    }

    /// Parks until the writer takes what is queued (at once when it already has room).
    private func park(_ continuation: CheckedContinuation<Void, Never>, size: Int) {
        lock.lock()
        if queuedBytes == 0 || queuedBytes + size <= configuration.queueBudget || closing || failure != nil {
            lock.unlock()
            continuation.resume()
            return
        }
        waiters.append(continuation)
        lock.unlock()
    }

    /// Writes what is queued, closes the current file (sync, rename, index), saves the capture
    /// history, and stops the writer thread. Call it once, after the last ``record(_:)``.
    /// - Returns: what this run wrote.
    /// - Throws: the first ``ArchiveError`` the writer met.
    public func finish() async throws(ArchiveError) -> Summary {
        beginClosing()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [self] in
                waitUntilDone()
                continuation.resume()
            }
        }
        return try summary().get()
    }

    /// What the writer did, read under the lock it released last: a continuation resumed before
    /// its task finished suspending hands over through the concurrency runtime's own atomics,
    /// which a thread sanitizer does not see, so the lock is what orders these reads after the
    /// writer's writes.
    private func summary() -> Result<Summary, ArchiveError> {
        lock.lock()
        defer { lock.unlock() }
        if let failure { return .failure(failure) }
        return .success(Summary(
            files: writer.finished.map(\.name), exchanges: writer.exchanges, revisits: writer.revisits,
            bytes: writer.finished.reduce(0) { $0 + $1.bytes }, recovered: recovered, writerCPUSeconds: writerCPUSeconds))
    }

    private func waitUntilDone() {
        lock.lock()
        while !done { lock.wait() }
        lock.unlock()
    }

    private func beginClosing() {
        lock.lock()
        closing = true
        lock.broadcast()
        lock.unlock()
    }

    // MARK: Writer thread

    private func run() {
        while true {
            lock.lock()
            if queue.isEmpty && !closing && failure == nil {
                // Nothing waits: write out what is buffered before sleeping.
                lock.unlock()
                do throws(ArchiveError) { try writer.flush() } catch { fail(error) }
                lock.lock()
            }
            while queue.isEmpty && !closing { lock.wait() }
            let batch = queue
            queue.removeAll()
            queuedBytes = 0
            let resumed = waiters
            waiters.removeAll()
            let stop = closing && batch.isEmpty
            let failed = failure != nil
            lock.unlock()
            for waiter in resumed { waiter.resume() }
            if stop { break }
            for capture in batch {
                if failed {
                    capture.payload.discardSpoolFile()
                    continue
                }
                write(capture)
            }
        }
        var history = self.history
        for reference in latest.values { history.update(reference) }
        do throws(ArchiveError) {
            try writer.finish()
            try history.save(folder: configuration.folder)
        } catch {
            fail(error)
        }
        var used = timespec()
        let cpuSeconds = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used) == 0 ? Double(used.tv_sec) + Double(used.tv_nsec) / 1e9 : 0
        lock.lock()
        writerCPUSeconds = cpuSeconds
        done = true
        lock.broadcast()
        lock.unlock()
    }

    private func write(_ capture: HTTPCapture) {
        defer { capture.payload.discardSpoolFile() }
        let previous = latest[capture.url] ?? history[capture.url]
        do throws(ArchiveError) {
            let exchange = try writer.write(capture, previous: previous)
            if let reference = exchange.reference {
                latest[capture.url] = reference
            }
        } catch {
            fail(error)
        }
    }

    private func fail(_ error: ArchiveError) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }
}
