import Testing
@testable import MirrorCore

@Suite struct ChunkedArrayTests {
    /// Appends one by one and in bulk, across chunk boundaries, read back and written in place
    /// as an array would be; storage is whole chunks, at most one of them not full.
    @Test(arguments: [0, 1, 4095, 4096, 4097, 10_000])
    func behavesAsAnArray(_ bulk: Int) {
        var chunked = ChunkedArray<Int>()
        var plain: [Int] = []
        for i in 0..<5_000 {
            chunked.append(i)
            plain.append(i)
        }
        chunked.append(repeating: -1, count: bulk)
        plain.append(contentsOf: repeatElement(-1, count: bulk))
        for i in stride(from: 0, to: plain.count, by: 333) {
            chunked[i] *= 2
            plain[i] *= 2
        }
        #expect(chunked.count == plain.count)
        #expect(Array(chunked) == plain)
        let chunks = (plain.count + ChunkedArray<Int>.chunkSize - 1) / ChunkedArray<Int>.chunkSize
        #expect(chunked.storageBytes == chunks * ChunkedArray<Int>.chunkSize * MemoryLayout<Int>.stride)
        #expect(Array(ChunkedArray(repeating: 7, count: bulk)) == [Int](repeating: 7, count: bulk))
    }

    /// A copy does not see later changes (value semantics).
    @Test func copiesAreIndependent() {
        var first = ChunkedArray(repeating: 1, count: 5_000)
        let second = first
        first[4_999] = 2
        first.append(3)
        #expect(second.count == 5_000 && second[4_999] == 1)
        #expect(first.count == 5_001 && first[4_999] == 2)
    }
}
