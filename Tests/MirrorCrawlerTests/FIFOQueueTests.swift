import Testing
@testable import MirrorCrawler

/// `FIFOQueue`: the frontier's queues, in chunks.
struct FIFOQueueTests {
    /// Elements come out in the order they went in, across chunk boundaries, with appends and
    /// removals interleaved, and the count follows; an emptied queue takes appends again.
    @Test func firstInFirstOutAcrossChunks() {
        var queue = FIFOQueue<Int>()
        #expect(queue.popFirst() == nil)
        var expected: [Int] = []
        var next = 0
        var taken: [Int] = []
        let size = FIFOQueue<Int>.chunkSize
        // Rounds of more appends than removals, then a drain: every boundary is crossed.
        for round in 0..<6 {
            for _ in 0..<(size + 37 * round) {
                queue.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(size / 2 + round) {
                if let value = queue.popFirst() { taken.append(value) }
            }
            #expect(queue.count == expected.count - taken.count)
        }
        while let value = queue.popFirst() { taken.append(value) }
        #expect(taken == expected)
        #expect(queue.isEmpty && queue.count == 0)
        queue.append(-1)
        queue.append(-2)
        #expect(queue.popFirst() == -1)
        #expect(queue.popFirst() == -2)
        #expect(queue.popFirst() == nil)
    }
}
