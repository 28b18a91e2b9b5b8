import CMirrorShims
import Foundation
import MirrorCore
import Testing

/// The detached POSIX threads a run starts on its way to the first request.
@Suite struct NativeThreadTests {
    /// What the thread saw of itself.
    final class Seen: @unchecked Sendable {
        let condition = NSCondition()
        var name: String?
        var kernelName: String?
        var isCreator = true
    }

    func run(name: String, stackSize: Int?) throws -> Seen {
        let seen = Seen()
        let creator = pthread_self()
        let started = NativeThread.detach(name: name, stackSize: stackSize) {
            var buffer = [CChar](repeating: 0, count: 32)
            let named = CMirrorShims_thread_name(&buffer, buffer.count) == 0
            let comm = try? String(contentsOfFile: "/proc/self/task/\(CMirrorShims_gettid())/comm", encoding: .utf8)
            seen.condition.lock()
            seen.name = named ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            seen.kernelName = comm?.trimmingCharacters(in: .whitespacesAndNewlines)
            seen.isCreator = pthread_equal(pthread_self(), creator) != 0
            seen.condition.broadcast()
            seen.condition.unlock()
        }
        #expect(started)
        seen.condition.lock()
        defer { seen.condition.unlock() }
        let deadline = Date().addingTimeInterval(10)
        while seen.name == nil, seen.condition.wait(until: deadline) {}
        return seen
    }

    @Test func theBodyRunsOnANewThreadWithTheNameGiven() throws {
        let seen = try run(name: "mm-test-thread", stackSize: 1 << 20)
        #expect(seen.name == "mm-test-thread")
        #expect(seen.kernelName == "mm-test-thread")
        #expect(!seen.isCreator)
    }

    @Test func aLongNameIsCutToTheKernelsFifteenBytes() throws {
        let seen = try run(name: "mm-a-name-longer-than-fifteen-bytes", stackSize: nil)
        #expect(seen.name == "mm-a-name-longe")
        #expect(seen.kernelName == "mm-a-name-longe")
        #expect(NativeThread.kernelName("mm-é-é-é-éé") == "mm-é-é-é-é")  // 14 bytes: no half é
    }
}
