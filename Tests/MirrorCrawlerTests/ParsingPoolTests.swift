import CMirrorShims
import Foundation
import Testing
@testable import MirrorCrawler

@Suite("Parsing pool") struct ParsingPoolTests {
    struct Failure: Error, Equatable { let number: Int }

    /// A value shared by the test and the pool's threads.
    final class Shared<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<R>(_ body: (inout Value) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    static func currentThreadName() -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = CMirrorShims_thread_name(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func resultsAndErrorsComeBackToTheirCallers() async throws {
        let pool = ParsingPool(width: 2)
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for number in 0..<200 {
                group.addTask { (number, try await pool.run { number * number }) }
            }
            var results: [Int: Int] = [:]
            for try await (number, square) in group { results[number] = square }
            return results
        }
        #expect(results.count == 200)
        #expect(results.allSatisfy { $0.value == $0.key * $0.key })
        await #expect(throws: Failure(number: 7)) {
            _ = try await pool.run { () throws -> Int in throw Failure(number: 7) }
        }
        // The pool still works after a job threw.
        #expect(try await pool.run { "after" } == "after")
    }

    /// At most `width` jobs run at once, on the pool's own threads (not the cooperative pool's).
    @Test func jobsRunAtMostWidthAtATimeOnThreadsOfTheirOwn() async throws {
        let pool = ParsingPool(width: 2)
        let gauge = Shared((running: 0, most: 0, names: Set<String>()))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await pool.run {
                        gauge.withLock { $0.running += 1; $0.most = max($0.most, $0.running); $0.names.insert(Self.currentThreadName()) }
                        usleep(5_000)
                        gauge.withLock { $0.running -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seen = gauge.withLock { $0 }
        #expect(seen.most == 2)
        #expect(seen.names == [ParsingPool.threadName])
    }

    /// While the pool's threads are busy, the cooperative pool keeps running other tasks: the
    /// reason the pool exists. Each job holds its thread until released (or for 30 s at most);
    /// on the cooperative pool (as many threads as jobs here) nothing else could run until the
    /// jobs end, so another task would answer only after they had. No time is measured: the
    /// check is that the answer came while every job was still running.
    @Test func busyParsingLeavesTheCooperativePoolFree() async throws {
        let pool = ParsingPool(width: ProcessInfo.processInfo.activeProcessorCount)
        let release = Shared(false)
        let busy = Shared(0)
        let finished = Shared(0)
        let start = Date()
        let parsing = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<pool.width {
                    group.addTask {
                        try await pool.run {
                            busy.withLock { $0 += 1 }
                            while !release.withLock({ $0 }), Date().timeIntervalSince(start) < 30 { usleep(1_000) }
                            finished.withLock { $0 += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        while busy.withLock({ $0 }) < pool.width { try await Task.sleep(nanoseconds: 1_000_000) }
        let answered = await Task { 42 }.value
        let stillRunning = finished.withLock { $0 } == 0
        release.withLock { $0 = true }
        try await parsing.value
        #expect(answered == 42)
        #expect(stillRunning, "a cooperative task waited until the pool's jobs ended")
    }
}
