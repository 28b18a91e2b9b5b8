import Foundation
import Testing
@testable import MirrorHTTP

/// The thread parked for the first transfer engine.
@Suite("Engine thread reserve")
struct EngineThreadReserveTests {
    /// What a job saw of the thread it ran on.
    private final class Seen: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var threadName = ""
        var onMainThread = true
    }

    private static func currentThreadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("an empty reserve hands nothing over: the caller starts its own thread")
    func emptyReserveTakesNothing() {
        let reserve = EngineThreadReserve()
        #expect(!reserve.take { Issue.record("a job ran on a thread that was never started") })
    }

    @Test("a filled reserve runs the first job on its parked thread, and only the first")
    func firstJobRunsOnTheParkedThread() {
        let reserve = EngineThreadReserve()
        reserve.fill()
        reserve.fill()  // a second fill starts no second thread
        // Give the thread time to park first, so the hand-over goes through the wait.
        Thread.sleep(forTimeInterval: 0.05)
        let seen = Seen()
        #expect(reserve.take {
            seen.threadName = Self.currentThreadName()
            seen.onMainThread = Thread.isMainThread
            seen.done.signal()
        })
        #expect(seen.done.wait(timeout: .now() + 10) == .success, "the parked thread never ran the job")
        #expect(seen.threadName == EngineThreadReserve.threadName)
        #expect(!seen.onMainThread)
        #expect(!reserve.take { Issue.record("a second job ran on the reserved thread") })
    }

    @Test("a job handed over before the thread has parked still runs")
    func jobHandedBeforeTheThreadWaits() {
        let reserve = EngineThreadReserve()
        reserve.fill()
        let seen = Seen()
        #expect(reserve.take { seen.done.signal() })
        #expect(seen.done.wait(timeout: .now() + 10) == .success)
    }
}
