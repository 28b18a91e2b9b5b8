import CMirrorShims
import MirrorCore
import Foundation

/// A few threads of its own for long, synchronous parsing (a large HTML document takes
/// 100–150 ms in libxml2 and the reference resolution). The crawler sends it the documents too
/// large to be received in memory (over 64 KiB, ``Crawler/inMemoryBodyLimit``); smaller ones
/// parse in well under a millisecond, less than the trip to another thread and back.
///
/// Swift's cooperative pool has one thread per core, and a job on it runs to its end. Two large
/// documents parsed there held both threads on a two-core machine: the crawl state's actor, the
/// fetch completions and every other worker waited behind them (a small document's bookkeeping
/// took 390 ms), and the crawl stalled with nothing in flight. Threads of this pool are
/// scheduled by the kernel beside the cooperative ones, so the crawl keeps moving while a
/// large document is parsed.
///
/// Jobs run in the order they were submitted, at most ``width`` at a time. One pool serves the
/// whole process (``shared``): its threads start on first use and then wait for work, so a
/// long-running `refresh --every` does not gather threads run after run.
final class ParsingPool: @unchecked Sendable {
    static let shared = ParsingPool()

    let width: Int
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var jobs: [() -> Void] = []
    private var started = 0
    private var idle = 0

    /// - Parameter width: the most jobs running at once (default: one per active core).
    init(width: Int = Processors.active) {
        self.width = max(1, width)
    }

    /// Runs `body` on a thread of the pool and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            enqueue { continuation.resume(with: Result { try body() }) }
        }
    }

    private func enqueue(_ job: @escaping () -> Void) {
        condition.lock()
        jobs.append(job)
        if idle > 0 {
            condition.signal()
        } else if started < width {
            started += 1
            Thread { [self] in
                // Named from inside: on Linux a new thread inherits its creator's name.
                _ = CMirrorShims_set_thread_name(Self.threadName)
                work()
            }.start()
        }
        condition.unlock()
    }

    /// What `top -H`, `perf` and `/proc/<pid>/task/*/comm` show for the pool's threads.
    static let threadName = "mm-parse"

    private func work() {
        condition.lock()
        while true {
            while jobs.isEmpty {
                idle += 1
                condition.wait()
                idle -= 1
            }
            // At most one job per worker task waits here, so taking the first is cheap.
            let job = jobs.removeFirst()
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
